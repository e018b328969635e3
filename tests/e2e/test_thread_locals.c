/*
 * Thread-locals (self->x), which live in the thread's task-local storage:
 * each thread of a process has its own, and a clause with many of them,
 * stored and read in turn, still passes the verifier.
 */
#include "e2e.h"

#include <stdio.h>
#include <string.h>

/* lock_contend's 8 threads each write then read 50 times: at each read the
 * thread's own count of writes is its round (1..50); one count shared by
 * the threads would reach 400 */
E2E_TEST(thread_locals, each_thread_has_its_own)
{
	const char *obj = e2e_build("tls_threads",
		"#pragma D option quiet\n"
		"syscall::write:entry /pid == $target/ { self->n++; }\n"
		"syscall::read:entry /pid == $target && self->n/\n"
		"{\n"
		"	@reads = count(); @lo = min(self->n); @hi = max(self->n);\n"
		"}\n"
		"END { printa(\"%@d reads, rounds %@d to \", @reads, @lo); printa(\"%@d\\n\", @hi); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s 8 50", e2e_trigger("lock_contend")), obj, NULL);
	e2e_expect(&r, 0, "400 reads, rounds 1 to 50\n\n");
	run_result_free(&r);
}

/* eight thread-locals of every integer width and sign, each pair stored
 * and added both ways: 64 stores and 128 reads in one clause */
E2E_TEST(thread_locals, many_in_one_clause)
{
	static const char *const types[] = { "char", "short", "int", "long long",
		"unsigned char", "unsigned short", "unsigned int", "unsigned long long" };
	static char src[16384], want[4096];
	size_t n = 0, w = 0;
	n += (size_t)snprintf(src + n, sizeof(src) - n, "#pragma D option quiet\n");
	for (int i = 0; i < 8; i++)
		n += (size_t)snprintf(src + n, sizeof(src) - n, "self %s v%d;\n", types[i], i);
	n += (size_t)snprintf(src + n, sizeof(src) - n, "BEGIN\n{\n");
	for (int i = 0; i < 8; i++) {
		for (int j = 0; j < 8; j++) {
			n += (size_t)snprintf(src + n, sizeof(src) - n,
				"	self->v%d = 100; self->v%d = 27; printf(\"%%d %%d \", "
				"self->v%d + self->v%d, self->v%d + self->v%d);\n",
				i, j, i, j, j, i);
			/* the second store wins where i == j */
			int s = i == j ? 54 : 127;
			w += (size_t)snprintf(want + w, sizeof(want) - w, "%d %d ", s, s);
		}
		n += (size_t)snprintf(src + n, sizeof(src) - n, "	printf(\"\\n\");\n");
		w += (size_t)snprintf(want + w, sizeof(want) - w, "\n");
	}
	snprintf(src + n, sizeof(src) - n, "	exit(0);\n}\n");
	snprintf(want + w, sizeof(want) - w, "\n");
	const char *obj = e2e_build("tls_many", src);
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0, want);
	run_result_free(&r);
}
