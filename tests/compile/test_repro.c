/*
 * Reproducible objects: one script, the same options and the same BTF give
 * the same bytes whichever directory it is compiled from, however its path
 * is spelled, wherever the BTF file lies and whenever it runs.
 */
#include "e2e/e2e.h"

/* Uses kernel types (CO-RE relocations, so the BTF is read), strings, an
 * aggregation with a key, printf and a clause location a fault would print. */
static const char script[] =
	"syscall::read:entry\n"
	"/curthread->pid > 1/\n"
	"{\n"
	"\t@reads[execname, curthread->tgid] = count();\n"
	"\tself->n = arg2 / (arg0 + 1);\n"
	"\tprintf(\"%s %d\\n\", execname, curthread->prio);\n"
	"}\n"
	"END { printa(@reads); }\n";

/* Compile in dir (after env, a prefix of the command) to <scratch>/out.bpf.o;
 * returns its bytes and their count. */
static char *compile_in(const char *dir, const char *how, const char *btf, const char *env,
			size_t *len)
{
	struct run_result r;
	char *cmd = e2e_fmt("cd '%s' && %s '%s' --btf '%s' -o %s/out.bpf.o %s", dir, env,
			    DCC_BIN, btf, e2e_dir, how);
	run_sh(&r, cmd, E2E_TIMEOUT);
	cr_assert_eq(r.status, 0, "%s: status %d\n%s", cmd, r.status, r.err);
	run_result_free(&r);
	char *obj = read_file(e2e_tmp("out.bpf.o"), len);
	cr_assert_not_null(obj);
	return e2e_keep(obj);
}

NOKERNEL_TEST(repro, two_directories_same_bytes)
{
	const char *short_dir = e2e_tmp("a");
	const char *long_dir = e2e_tmp("a-much-longer-directory-name/and/deeper/still");
	struct run_result r;
	run_sh(&r, e2e_fmt("mkdir -p '%s' '%s' && cp '%s' '%s/pinned.btf'", short_dir, long_dir,
			   PINNED_BTF, long_dir), E2E_TIMEOUT);
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_result_free(&r);
	cr_assert_eq(write_file(e2e_fmt("%s/x.d", short_dir), script, strlen(script)), 0);
	cr_assert_eq(write_file(e2e_fmt("%s/x.d", long_dir), script, strlen(script)), 0);

	size_t want_len;
	char *want = compile_in(short_dir, "x.d", PINNED_BTF, "", &want_len);
	/* where the script is, how its path is written, where the BTF is, the
	 * time zone and the clock: none may show in the object */
	const struct {
		const char *dir, *how, *btf, *env;
	} runs[] = {
		{ short_dir, e2e_fmt("'%s/x.d'", short_dir), PINNED_BTF, "" },
		{ long_dir, "x.d", PINNED_BTF, "" },
		{ long_dir, e2e_fmt("'%s/x.d'", long_dir), "pinned.btf", "" },
		{ long_dir, "./still/../still/x.d", "still/pinned.btf", "cd .. &&" },
		{ e2e_dir, "-C a/x.d", PINNED_BTF, "TZ=Asia/Tokyo SOURCE_DATE_EPOCH=1" },
	};
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		size_t len;
		char *got = compile_in(runs[i].dir, runs[i].how, runs[i].btf, runs[i].env, &len);
		cr_assert(len == want_len && !memcmp(got, want, len),
			  "compiling %s from %s gives other bytes (%zu, not %zu)", runs[i].how,
			  runs[i].dir, len, want_len);
		cr_assert_null(memmem(got, len, e2e_dir, strlen(e2e_dir)),
			       "the object holds the directory it was compiled from");
	}
}
