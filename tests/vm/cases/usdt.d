/*
 * USDT on 6.1: the usdt_sdt trigger's notes in its static a.out, each
 * argument kind (32- and 64-bit registers, a stack slot, a constant) and
 * the names, as tests/e2e/test_usdt.c checks them here; the trigger's own
 * line (on stderr, unbuffered, before dtrun's buffered output) says its
 * semaphore was set at each firing.
 * vm-cmd: usdt_sdt 3
 */
dcctest$target:::tick
{
	printf("%s %s %s %d %d %d %d\n", probemod, probefunc, probename, arg0, arg1, arg2, arg3);
}
dcctest$target:::query-done { @[probename] = sum(args[0]); }
END { printa("%s %@d\n", @); }
