/*
 * Objects dtrun must refuse with a one-line reason and exit 1 (truncated,
 * corrupted, not dcc's, unknown metadata version), leaving nothing loaded.
 * Compile errors and bad usage need no kernel: tests/compile/test_cli_errors.c.
 */
#include <stdint.h>

#include "e2e.h"

/* dtrun on path must fail with status 1 and exactly one line on stderr. */
static void refused(const char *path, const char *pattern)
{
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, path, NULL);
	cr_assert_eq(r.status, 1, "dtrun %s: status %d, want 1\nstderr:\n%s", path, r.status,
		     r.err);
	cr_assert_str_empty(r.out, "stdout: %s", e2e_show(r.out));
	e2e_expect_err(&r, pattern, NULL);
	run_result_free(&r);
}

static char *good_object(size_t *len)
{
	const char *obj = e2e_build_src("tst.hello");
	char *data = e2e_keep(read_file(obj, len));
	cr_assert_not_null(data);
	return data;
}

E2E_TEST(errors, good_object_runs)
{
	good_object(NULL);
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", e2e_tmp("tst.hello.bpf.o"), NULL);
	e2e_expect_out(&r, 0, "errors.good_object_runs");
	run_result_free(&r);
}

E2E_TEST(errors, truncated_objects_refused)
{
	size_t len;
	char *data = good_object(&len);
	const size_t cuts[] = { len / 2, len - 1, 64, 16, 0 };
	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		const char *p = e2e_tmp(e2e_fmt("cut%zu.bpf.o", cuts[i]));
		cr_assert_eq(write_file(p, data, cuts[i]), 0);
		refused(p, "dtrun: *");
	}
}

E2E_TEST(errors, not_an_object_refused)
{
	const char *txt = e2e_tmp("text.bpf.o");
	const char *s = "this is not an ELF file\n";
	cr_assert_eq(write_file(txt, s, strlen(s)), 0);
	refused(txt, "dtrun: *");
	/* An ELF file, but an executable rather than a dcc object. */
	refused(e2e_trigger("sleep_ms"), "dtrun: *");
	refused(e2e_tmp("does-not-exist.bpf.o"), "dtrun: *");
}

/* A BPF object made by clang, without dcc's metadata section. */
E2E_TEST(errors, foreign_bpf_object_refused)
{
	const char *c = e2e_tmp("foreign.c"), *o = e2e_tmp("foreign.bpf.o");
	const char *src = "__attribute__((section(\"raw_tp/sys_enter\"), used))\n"
			  "int prog(void *ctx) { return 0; }\n"
			  "char _license[] __attribute__((section(\"license\"), used)) = \"GPL\";\n";
	cr_assert_eq(write_file(c, src, strlen(src)), 0);
	struct run_result r;
	run_sh(&r, e2e_fmt("command -v clang-19 >/dev/null || exit 77; "
			   "clang-19 -g -O2 -target bpf -c %s -o %s", c, o), 60);
	e2e_keep(r.out);
	e2e_keep(r.err);
	if (r.status == 77)
		cr_skip_test("clang-19 is not installed");
	cr_assert_eq(r.status, 0, "clang-19 failed:\n%s", r.err);
	refused(o, "dtrun: *");
}

/* Find the metadata header in the object bytes. */
static char *find_meta(char *data, size_t len)
{
	for (size_t i = 0; i + 16 <= len; i++)
		if (!memcmp(data + i, "DCCMETA", 8))
			return data + i;
	cr_assert_fail("no DCCMETA magic in the object");
	return NULL;
}

E2E_TEST(errors, unknown_metadata_version_refused)
{
	size_t len;
	char *data = good_object(&len);
	char *meta = find_meta(data, len);
	uint32_t v = 99;
	memcpy(meta + 8, &v, 4);
	const char *p = e2e_tmp("v99.bpf.o");
	cr_assert_eq(write_file(p, data, len), 0);
	refused(p, "dtrun: *version*");
}

/* Metadata whose tables point outside the section: refused, never a crash
 * (the ASan build runs this too). */
E2E_TEST(errors, corrupted_metadata_refused)
{
	size_t len;
	char *data = good_object(&len);
	char *meta = find_meta(data, len);
	/* Every u32 after magic and version: size, str_off, table offsets,
	 * counts, script, flags; set one at a time to a huge value. */
	for (int field = 1; field < 22; field++) {
		char *copy = malloc(len);
		memcpy(copy, data, len);
		uint32_t huge = 0x7ffffff0u;
		memcpy(copy + (meta - data) + 8 + field * 4, &huge, 4);
		const char *p = e2e_tmp(e2e_fmt("bad%d.bpf.o", field));
		cr_assert_eq(write_file(p, copy, len), 0);
		struct run_result r;
		e2e_run(&r, DTRUN_BIN, "-q", p, NULL);
		/* A field the runtime does not need may leave the object usable;
		 * anything else must be a clean refusal. */
		if (r.status == 0) {
			e2e_assert_file(e2e_fmt("stdout (field %d)", field), r.out, "errors.corrupted_metadata_refused");
		} else {
			cr_assert_eq(r.status, 1, "field %d: status %d\n%s", field, r.status, r.err);
			cr_assert_eq(e2e_lines(r.err), 1, "field %d: stderr:\n%s", field, r.err);
			cr_assert_eq(strncmp(r.err, "dtrun: ", 7), 0, "field %d: %s", field, r.err);
		}
		run_result_free(&r);
		free(copy);
	}
}

/* A -c command that cannot be started and a -p process that does not exist
 * are fatal errors: status 1, one line, nothing left loaded. */
E2E_TEST(errors, bad_target_process)
{
	const char *obj = e2e_build_src("tst.getppid_count");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", "-c", "/nonexistent/dcc-e2e-command", obj, NULL);
	cr_assert_eq(r.status, 1, "-c missing command: status %d\n%s", r.status, r.err);
	e2e_expect_err(&r, "dtrun: *", NULL);
	run_result_free(&r);
	e2e_run(&r, DTRUN_BIN, "-q", "-p", "999999999", obj, NULL);
	cr_assert_eq(r.status, 1, "-p missing pid: status %d\n%s", r.status, r.err);
	e2e_expect_err(&r, "dtrun: *", NULL);
	run_result_free(&r);
}

static bool kallsyms_lists(const char *name)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], sym[256];
	bool found = false;
	while (f && !found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%*s %*s %255s", sym) == 1 && !strcmp(sym, name);
	if (f)
		fclose(f);
	return found;
}

/* A backquoted kernel variable takes its address from /proc/kallsyms; a
 * kernel that lists no variables there gets the symbol's name, not libbpf's
 * errno (ESRCH, "No such process"). */
E2E_TEST(errors, kernel_variable_without_an_address)
{
	const char *obj = e2e_build("maxpfn",
		"BEGIN { printf(\"%d\\n\", *(unsigned long *)&`max_pfn > 0); exit(0); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	if (kallsyms_lists("max_pfn")) {
		e2e_expect(&r, 0, "1\n");
	} else {
		cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
		e2e_expect_err(&r, "dtrun: */maxpfn.bpf.o: kernel symbol `max_pfn has no address in "
			       "/proc/kallsyms (a kernel built without CONFIG_KALLSYMS_ALL lists no "
			       "variables there)", NULL);
	}
	run_result_free(&r);
}
