struct flags {
	int a : 1;
	int b : 0;
	int : 0;
	int c : 12;
} f;

struct ok {
	int a : 3;
	int : 0;
	int c : 4;
} o;

BEGIN
{
	trace(&o.a);
	exit(0);
}
