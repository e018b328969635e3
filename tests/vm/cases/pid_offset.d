/*
 * pid offset probes and uregs[] on 6.1: a uprobe inside dcc_pidoff_add
 * (pid_target.c's assembly: %rax is arg0 + 1 at offset 4), its registers
 * read from the uprobe's context.
 * vm-cmd: pid_target 3
 */
pid$target:a.out:dcc_pidoff_add:4
{
	printf("%s %s %d %d %d\n", probefunc, probename, arg0, uregs[R_RAX], uregs[R_RDI] == arg0);
}
