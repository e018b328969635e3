/* what codegen cannot compute, sema refuses first */
BEGIN
{
	trace(&(1 + 2));
	trace(curthread->se + 1);
	@a = sum(curthread->se);
	x = printf("a");
}

BEGIN
{
	@b[curpsinfo] = count();
	trace(curpsinfo->pr_pid);
}
