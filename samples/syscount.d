/*
 * syscount.d: system calls per process name, until ^C.
 *
 *   dcc run -s samples/syscount.d
 */
syscall:::entry
{
	@[execname] = count();
}
