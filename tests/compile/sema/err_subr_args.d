/* alloca, bcopy, copyinto, byte order, rand, progenyof, getmajor/getminor:
 * argument counts and kinds; alloca()'s size is a constant of 0 to 4096,
 * bcopy()'s and copyinto()'s any integer, checked against 4096 when constant */
BEGIN
{
	a = alloca(arg0);
	b = alloca(4097);
	bcopy("abc", alloca(8), "4");
	bcopy(curthread->comm, 8);
	copyinto(arg0, 4097, alloca(8));
	copyinto(arg0, 4, "x");
	c = htons("a");
	d = ntohll();
	e = rand(1);
	f = progenyof("init");
	g = getmajor(curthread);
	h = getminor(1, 2);
}
