/*
 * The kernel's typedef names are D's type names where a cast or sizeof
 * reads them, while a variable that has such a name ("code" and "config"
 * are typedefs too) stays a variable in an expression.
 */
BEGIN
{
	code = 3;
	config = 2;
	x = (code) + (config * 2) - (code) * (config);
	y = (uint)-1 + (u_int)(x) + (ushort)~x;
	z = sizeof(uint) + sizeof(bool *);
	trace(x + y + z);
	exit(0);
}
