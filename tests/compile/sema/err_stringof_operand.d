/* stringof() takes a string, a char array, an address's text or any
 * scalar (an integer is an address, as a pointer is); nothing else */
struct pair { int a; int b; } pr;
BEGIN
{
	a = stringof(12);
	b = stringof(NULL);
	c = stringof(arg0);
	d = stringof(curthread);
	e = stringof(pr);
	f = stringof(trace(1));
	g = stringof(*curthread);
}
