/*
 * print() through the kernel: a D struct copied in from the print_struct
 * trigger's write(2) buffer (every member kind: ints, a char array, a union,
 * an anonymous struct, a pointer, an enum, bit-fields, a double), scalars
 * and a string, printed as DTrace for Linux prints them; and print(*curthread)
 * on BEGIN, whose pid and tgid are the consumer's own.
 */
#include "e2e/e2e.h"

#define I1 "                                             " /* 45 spaces: depth 1 */
#define I2 I1 " "
#define I0 "                                            "

static const char struct_d[] =
	"#pragma D option quiet\n"
	"enum eh { FIRSTVAL = 0, SECONDVAL = 1, THIRDVAL = 3 };\n"
	"struct test_struct {\n"
	"	int a;\n"
	"	char b[5];\n"
	"	union { unsigned char c; uint64_t d; } u;\n"
	"	struct { void *e; uint64_t f; } s;\n"
	"	int g;\n"
	"	enum eh h;\n"
	"	unsigned int bf1 : 3, bf2 : 5;\n"
	"	short neg;\n"
	"	double x;\n"
	"};\n"
	"syscall::write:entry /pid == $target && arg2 == sizeof(struct test_struct)/\n"
	"{\n"
	"	this->p = (struct test_struct *)copyin(arg1, sizeof(struct test_struct));\n"
	"	print(*this->p);\n"
	"	print(this->p->a);\n"
	"	print(this->p->h);\n"
	"	print(this->p->neg);\n"
	"	print(\"hello\");\n"
	"	print(this->p->b);\n"
	"}\n";

E2E_TEST(print, struct_copied_in_and_scalars)
{
	struct run_result r;
	const char *obj = e2e_build("print_struct", struct_d);

	e2e_run(&r, DTRUN_BIN, "-c", e2e_trigger("print_struct"), obj, NULL);
	e2e_expect_out(&r, 0, "print.struct_copied_in_and_scalars");
	run_result_free(&r);
}

E2E_TEST(print, curthread_on_begin)
{
	struct run_result r;
	char want[128];
	int pid;
	const char *obj = e2e_build("print_curthread",
				    "#pragma D option quiet\n"
				    "BEGIN { printf(\"pid=%d\\n\", pid); print(*curthread); "
				    "exit(0); }\n");

	e2e_run(&r, DTRUN_BIN, obj, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_eq(sscanf(r.out, "pid=%d\n", &pid), 1, "%s", r.out);
	cr_assert(strstr(r.out, "\n(struct task_struct) {\n" I1 "."), "%s", r.out);
	snprintf(want, sizeof(want), "\n" I1 ".pid = (pid_t)%d,\n" I1 ".tgid = (pid_t)%d,\n", pid,
		 pid);
	cr_assert(strstr(r.out, want), "no '%s' in:\n%s", want, r.out);
	cr_assert(strstr(r.out, "\n" I1 ".comm = (char [16]) [\n" I2 "(char)'d',\n"), "%s",
		  r.out);
	cr_assert(strstr(r.out, "\n" I1 ".real_parent = (struct task_struct *)0x"), "%s", r.out);
	cr_assert(strstr(r.out, "\n" I0 "}\n"), "%s", r.out);
	run_result_free(&r);
}

/* print(p) of a pointer to a struct: "0xADDR = *", then the struct indented
 * one level as DTrace for Linux prints it; ?: picks between pointers. */
E2E_TEST(print, pointer_prints_what_it_points_to)
{
	struct run_result r;
	unsigned long long addr, scratch;
	const char *obj = e2e_build("print_ptr",
		"#pragma D option quiet\n"
		"struct pt { int x; char name[3]; };\n"
		"syscall::write:entry /pid == $target && arg2 == sizeof(struct test_struct)/\n"
		"{\n"
		"	this->p = (struct pt *)copyin(arg1, sizeof(struct pt));\n"
		"	printf(\"%p\\n\", this->p);\n"
		"	print(pid > 0 ? this->p : 0);\n"
		"}\n"
		"struct test_struct { int a; char b[5]; union { unsigned char c; uint64_t d; } u;\n"
		"	struct { void *e; uint64_t f; } s; int g; int h; unsigned int bf; short neg;\n"
		"	double x; };\n");

	e2e_run(&r, DTRUN_BIN, "-c", e2e_trigger("print_struct"), obj, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_eq(sscanf(r.out, "%llx\n0x%llx = *\n", &scratch, &addr), 2, "%s", r.out);
	cr_assert_eq(scratch, addr);
	const char *rest = strchr(strchr(r.out, '\n') + 1, '\n') + 1;
	e2e_assert_file("print(p)", rest, "print.pointer_prints_what_it_points_to");
	run_result_free(&r);
}
