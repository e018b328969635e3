/*
 * Array-typed variables (`int a[5];` global, self-> and this->), stores
 * into bit-fields, and uregs[], through the kernel: exact values, and the
 * fault of an index computed past the end.
 */
#include "e2e.h"

E2E_TEST(arrays, array_variables_and_bitfield_stores)
{
	const char *obj = e2e_build_src("tst.array_vars");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0,
		   "q[2]=8\n"
		   "10 0 8 -1 30 p[4]=30\n"
		   "0 255 -25536 20\n"
		   "0 1099511627776\n"
		   "1 -2 ffffffffff\n"
		   "3 -2 5\n"
		   "fault 11 index 5, g[4] still 30\n\n");
	e2e_expect_err(&r,
		"dtrun: error in *tst.array_vars.d:50:1 for probe ID 1 (dtrace:::BEGIN): index out "
		"of bounds (5) at BPF pc *",
		NULL);
	run_result_free(&r);
}

E2E_TEST(arrays, uregs_reads_the_user_registers_at_a_syscall)
{
	/* at a syscall's entry x86_64 saves the call's number as orig_ax
	 * (R_ERR; getppid is 110) and -ENOSYS in ax until the call returns */
	const char *obj = e2e_build("uregs",
		"#pragma D option quiet\n"
		"syscall::getppid:entry /pid == $target/\n"
		"{\n"
		"	printf(\"%d %d %d %d\\n\", uregs[R_ERR], (long)uregs[R_RAX],\n"
		"	       uregs[R_PC] != 0 && uregs[R_SP] != 0, uregs[R_EIP] == uregs[16]);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s 2", e2e_trigger("getppid_n")), obj, NULL);
	e2e_expect(&r, 0, "110 -38 1 1\n110 -38 1 1\n\n");
	run_result_free(&r);
}
