enum color { RED, GREEN = 5 };
struct pt { int x; char tag[4]; enum color c; unsigned int f : 3; };
struct pt g;
BEGIN
{
	print(g);
	print(g.tag);
	print(1);
	print("s");
	print(execname);
	print(curthread);
	print(*curthread);
	print(GREEN);
	print(g.c);
	exit(0);
}
