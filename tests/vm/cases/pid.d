/*
 * The pid provider on 6.1: one uprobe a function (no multi-uprobe links
 * there), the trigger's functions in its static a.out, -c stopping it at
 * its entry point; entry arguments (registers and stack), return values
 * and each firing's names, as tests/e2e/test_pid.c checks them here.
 * vm-cmd: pid_target 4
 */
pid$target:a.out:dcc_pid_target_fn:entry { printf("in %d\n", arg0); }
pid$target:a.out:dcc_pid_target_fn:return { printf("out %d %d\n", arg0, arg1); }
pid$target:a.out:dcc_pid_target_s*:entry
{
	printf("%s %s %d %d %d\n", probefunc, probename, arg0, arg5, arg6);
}
pid$target:a.out:getpid:entry { @[probemod == execname, probefunc] = count(); }
END { printa("%d %s %@d\n", @); }
