/*
 * The proc provider's probes and their psinfo_t/lwpsinfo_t/int arguments
 * (tp_btf argument lists differ between kernels): the proc_family trigger's
 * four children, as tests/e2e/test_proc.c checks them on this machine.
 * vm-cmd: proc_family @REPORT@
 */
proc:::create /pid == $target/ { printf("create %d %d\n", args[0]->pr_pid,
    args[0]->pr_ppid == $target); }
proc:::lwp-create /pid == $target/ { printf("lwp-create\n"); }
proc:::exec /ppid == $target/ { printf("exec %d %s\n", pid, args[0]); }
proc:::exec-success /ppid == $target/ { printf("exec-success %d %s\n", pid, execname); }
proc:::exec-failure /ppid == $target/ { printf("exec-failure %d %d\n", pid, args[0]); }
proc:::exit /ppid == $target/ { printf("exit %d %d\n", pid, args[0]); }
proc:::lwp-exit /ppid == $target/ { printf("lwp-exit %d\n", tid); }
proc:::signal-send /pid == $target && args[1]->pr_ppid == $target/ {
	printf("signal-send %d %d %d\n", args[1]->pr_pid, args[0]->pr_lwpid, args[2]);
}
proc:::signal-discard /ppid == $target/ {
	printf("signal-discard %d %d\n", args[1]->pr_pid == $target, args[2]);
}
proc:::signal-handle /ppid == $target/ {
	printf("signal-handle %d %d %d\n", pid, args[0], args[2] != 0);
}
