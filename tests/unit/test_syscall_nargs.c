/* syscall_nargs(): the arguments a sys_enter_NAME tracepoint records, which
 * decide whether codegen may load argN from the context (the kernel refuses
 * to attach a program loading past them). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "syscall.h"

Test(syscall_nargs, known_syscalls)
{
	cr_expect_eq(syscall_nargs("openat"), 4);
	cr_expect_eq(syscall_nargs("read"), 3);
	cr_expect_eq(syscall_nargs("mmap"), 6);
	cr_expect_eq(syscall_nargs("getppid"), 0);
	/* the first and last of the sorted table: bsearch reaches both ends */
	cr_expect_eq(syscall_nargs("accept"), 3);
	cr_expect_eq(syscall_nargs("writev"), 3);
	cr_expect_eq(syscall_nargs("no_such_syscall"), -1);
	cr_expect_eq(syscall_nargs(""), -1);
}

/* fields in a tracefs format file after __syscall_nr, -1 without the file */
static int format_nargs(const char *name)
{
	char path[256], line[512];
	int n = -1;
	snprintf(path, sizeof(path), "/sys/kernel/tracing/events/syscalls/sys_enter_%s/format",
		 name);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "field:int __syscall_nr;"))
			n = 0;
		else if (n >= 0 && strstr(line, "field:"))
			n++;
	fclose(f);
	return n;
}

/* the table says what this kernel's tracepoints record, for every syscall
 * that has one here (never more: a larger count would make an object the
 * kernel refuses to attach) */
Test(syscall_nargs, matches_this_kernel)
{
	FILE *f = fopen("/sys/kernel/tracing/events/syscalls/sys_enter_openat/format", "r");
	if (!f)
		cr_skip_test("no readable tracefs syscall formats");
	fclose(f);
	int checked = 0;
	for (int i = 0; i < syscall_count(); i++) {
		int nr;
		const char *name = syscall_nth(i, &nr);
		int want = format_nargs(name);
		if (want < 0)
			continue;
		cr_expect_eq(syscall_nargs(name), want, "%s: table %d, tracefs %d", name,
			     syscall_nargs(name), want);
		checked++;
	}
	cr_expect_gt(checked, 300);
}
