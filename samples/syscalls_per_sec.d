/*
 * syscalls_per_sec.d: a tick-based reporter. Counts every system call and
 * prints the rate once a second, for five seconds.
 *
 *   dcc run -q -s samples/syscalls_per_sec.d
 */
syscall:::entry
{
	n++;
}

profile:::tick-1s
{
	secs++;
	printf("%3d s  %8d syscalls/s\n", secs, n);
	n = 0;
}

profile:::tick-1s
/secs == 5/
{
	exit(0);
}
