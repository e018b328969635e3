/* copyin(addr, size): a user address and a constant size of 1 to 4096 */
BEGIN
{
	a = copyin(arg0);
	b = copyin("x", 8);
	c = copyin(arg0, arg1);
	d = copyin(arg0, 0);
	e = copyin(arg0, 4097);
	f = (struct nosuch *)copyin(arg0, 8);
}
