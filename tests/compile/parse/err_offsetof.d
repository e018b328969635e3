BEGIN { x = offsetof(struct s); }
