/* alloca, bcopy, copyinto, byte order, rand, progenyof, getmajor/getminor:
 * argument counts and kinds; sizes are constants of 1 to 4096 */
BEGIN
{
	a = alloca(arg0);
	b = alloca(0);
	bcopy("abc", alloca(8), 4);
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
