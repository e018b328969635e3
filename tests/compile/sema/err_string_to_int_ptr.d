/* A string converts to a char pointer only: to another pointer it is refused. */
int *p;
long *q[int];
BEGIN
{
	p = execname;
	q[1] = "text";
}
