/* ++ and -- step integers and pointers: a variable already holding a
 * string or a struct is refused for its own type. */
struct pair { int a, b; } pr;
BEGIN
{
	name = "abc";
	name++;
	--name;
	pr++;
	n = 1;
	n--;
	p = (char *)0;
	p++;
	fresh++;
}
