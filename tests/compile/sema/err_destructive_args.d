BEGIN
{
	tracemem(0);
	tracemem(0, 8192);
	tracemem("abc", 8);
	tracemem(0, 8, "x");
	raise();
	raise("HUP");
	stop(1);
	system(1);
	system("echo %d");
	system("echo %s", 1);
	freopen();
	ftruncate(0);
	copyout(0, 0);
	copyout(0, 0, 0);
	copyoutstr(1, 0, 8);
	copyoutstr("x", "y", 8);
	x = raise(1);
}

BEGIN
{
	speculate(speculation());
	raise(1);
}
