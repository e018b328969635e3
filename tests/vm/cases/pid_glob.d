/*
 * The pid provider's fallback on 6.1 (no multi-uprobe links: one uprobe a
 * function) over every function of the static pid_target, its libc
 * included: getpid, called 6 times, counts exactly 6 through the wildcard,
 * and so does the trigger's own function. On this machine's kernel the same
 * object takes one multi-uprobe link (vm.host_baseline).
 * vm-cmd: pid_target 6
 * vm-timeout: 300
 */
pid$target:a.out::entry /probefunc == "getpid" || probefunc == "dcc_pid_target_fn"/
{
	@[probefunc] = count();
}
END { printa("%s %@d\n", @); }
