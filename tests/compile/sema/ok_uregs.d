/* uregs[] with DTrace's register names, and their values as numbers */
syscall::getppid:entry
{
	trace(uregs[R_PC] + uregs[R_SP] + uregs[R_FP] + uregs[R_PS] + uregs[R_R0] + uregs[R_R1]);
	trace(uregs[R_SS] - uregs[0]);
	trace(R_PC + R_SP + R_EAX + R_ERR + R_TRAPNO);
}
