/*
 * cmdsyscalls.d: which system calls a command makes, and how often.
 * The trace ends when the command exits.
 *
 *   dcc run -q -s samples/cmdsyscalls.d -c 'ls /'
 */
syscall:::entry
/pid == $target/
{
	@calls[probefunc] = count();
}
