translator t_t < struct s *S > {
	x = S->x;
	y S->y;
};
