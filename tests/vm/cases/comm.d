/*
 * Strings filled by helpers carry nothing after their NUL: 6.1's
 * bpf_get_current_comm() copies the name and its NUL only, so a buffer
 * not zeroed first compares unequal, splits aggregation keys and leaks
 * stack bytes into records. execname, curthread->comm and copyinstr()
 * are compared with literals and each other, used as keys and recorded.
 * vm-cmd: open_paged 3 comm.case
 */
#pragma D option quiet

BEGIN
{
	printf("begin %d\n", execname == "dtrun");
}

syscall::openat:entry
/pid == $target && copyinstr(arg1) == "comm.case"/
{
	this->c = stringof(curthread->comm);
	printf("%d %d %d %d|%s|%s|\n", execname == "open_paged", this->c == "open_paged",
	    execname == this->c, copyinstr(arg1) == "comm.case", execname, this->c);
	@n[execname] = count();
	@n[this->c] = count();
	@p[copyinstr(arg1)] = count();
	trace(execname);
	printf("\n");
}

END
{
	printa("%s %@d\n", @n);
	printa("%s %@d\n", @p);
}
