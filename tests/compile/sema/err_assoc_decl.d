uint64_t last[int];
this int local[int];
int bad[nosuchtype];
struct pair { int a; int b; } pairs[string];
string strs[5];
self string names[int, string];

BEGIN
{
	last[1] = 2;
	last["one"] = 2;
	last[2] = "two";
	last = 3;
	self->names[1, "a"] = "b";
	self->names[1] = "c";
	self->names[1, "a"] = 4;
	pairs["x"].a = 1;
	pairs["x"].b = "s";
	pairs["x"].c = 1;
	trace(last[1]);
	exit(0);
}
