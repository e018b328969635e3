struct s {
	int a;
	char b[4]
}
BEGIN { }
