int 5;
int y
BEGIN { }
