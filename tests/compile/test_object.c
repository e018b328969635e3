/*
 * The object dcc writes, seen from outside, with no kernel (any user): ELF
 * sections (.BTF, .BTF.ext, the metadata section, libbpf section names),
 * program names starting with dcc_, `bpftool gen skeleton` accepting it
 * as-is, the same input giving the same bytes, the --dump-* views, the
 * samples of samples/ compiling, and `dcc -l` on named descriptions. The
 * scripts are tests/e2e's; tests/e2e/test_object.c runs what needs root.
 */
#include <dirent.h>

#include "e2e/e2e.h"

static const char *sections_of(const char *obj)
{
	struct run_result r;
	e2e_run(&r, "/usr/bin/readelf", "-W", "-S", obj, NULL);
	cr_assert_eq(r.status, 0, "readelf: %s", r.err);
	free(r.err);
	return e2e_keep(r.out);
}

NOKERNEL_TEST(object, sections_and_btf)
{
	const char *obj = e2e_build_src("tst.getppid_count");
	const char *s = sections_of(obj);
	cr_assert(strstr(s, " .BTF "), "no .BTF section:\n%s", s);
	cr_assert(strstr(s, " .BTF.ext "), "no .BTF.ext section:\n%s", s);
	cr_assert(strstr(s, " .dcc.meta "), "no .dcc.meta section:\n%s", s);
	cr_assert(strstr(s, " tracepoint/syscalls/sys_enter_getppid ") ||
		  strstr(s, " raw_tp/") || strstr(s, " tp_btf/"),
		  "no libbpf-style section for the syscall probe:\n%s", s);
	struct run_result r;
	e2e_run(&r, "/usr/bin/readelf", "-W", "-h", obj, NULL);
	cr_assert(strstr(r.out, "Linux BPF"), "not a BPF ELF:\n%s", r.out);
	run_result_free(&r);
}

NOKERNEL_TEST(object, programs_are_named_dcc)
{
	const char *obj = e2e_build_src("tst.sigint");
	struct run_result r;
	e2e_run(&r, "/usr/bin/readelf", "-W", "-s", obj, NULL);
	cr_assert_eq(r.status, 0);
	/* Every FUNC symbol (a BPF program) starts with dcc_. */
	int funcs = 0;
	char *save = NULL;
	for (char *l = strtok_r(r.out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (!strstr(l, " FUNC "))
			continue;
		funcs++;
		const char *name = strrchr(l, ' ') + 1;
		cr_assert_eq(strncmp(name, "dcc_", 4), 0, "program %s is not named dcc_*", name);
	}
	run_result_free(&r);
	cr_assert_geq(funcs, 2, "BEGIN and END programs expected, found %d", funcs);
}

NOKERNEL_TEST(object, bpftool_gen_skeleton_accepts_it)
{
	const char *obj = e2e_build_src("tst.self_timing");
	struct run_result r;
	e2e_run(&r, "/usr/sbin/bpftool", "gen", "skeleton", obj, "name", "dcc_e2e", NULL);
	cr_assert_eq(r.status, 0, "bpftool gen skeleton failed:\n%s", r.err);
	cr_assert(strstr(r.out, "struct dcc_e2e {"), "no skeleton struct:\n%.2000s", r.out);
	cr_assert(strstr(r.out, "dcc_e2e__open"), "no open function");
	run_result_free(&r);
}

/* --skel: bpftool's skeleton named after the file, then dcc's helpers, and
 * the header compiles as C and C++ with every warning an error. */
NOKERNEL_TEST(object, skel_option_writes_a_skeleton)
{
	const char *obj = e2e_tmp("my-script.bpf.o"), *skel = e2e_tmp("my-script.skel.h");
	const char *c = e2e_tmp("use.c");
	struct run_result r;
	e2e_run(&r, DCC_BIN, "--btf", PINNED_BTF, e2e_src("tst.getppid_count.d"), "-o", obj,
		"--skel", skel, NULL);
	cr_assert_eq(r.status, 0, "dcc --skel failed:\n%s", r.err);
	cr_assert_str_eq(r.err, "");
	run_result_free(&r);
	char *h = e2e_keep(read_file(skel, NULL));
	cr_assert(h && strstr(h, "struct my_script {"), "no skeleton struct:\n%.2000s", h);
	cr_assert(strstr(h, "static inline int my_script__dcc_start("), "no dcc helper");
	const char *use = "#include \"my-script.skel.h\"\n"
			  "int main(void) { struct dcc_session *s; "
			  "return my_script__dcc_start(0, &s) ? 1 : 0; }\n";
	cr_assert_eq(write_file(c, use, strlen(use)), 0);
	char cmd[2048];
	snprintf(cmd, sizeof(cmd), "cd %s && cc -Wall -Wextra -Werror -I%s/../headers -c use.c "
		 "-o use_c.o && c++ -Wall -Wextra -Werror -I%s/../headers -x c++ -c use.c "
		 "-o use_cxx.o", e2e_tmp(""), TESTS_SRC_DIR, TESTS_SRC_DIR);
	run_sh(&r, cmd, 120);
	cr_assert_eq(r.status, 0, "the skeleton does not compile:\n%s", r.err);
	run_result_free(&r);
}

NOKERNEL_TEST(object, same_input_same_bytes)
{
	const char *a = e2e_tmp("a.bpf.o"), *b = e2e_tmp("b.bpf.o");
	e2e_compile(e2e_src("tst.operators.d"), a);
	e2e_compile(e2e_src("tst.operators.d"), b);
	size_t la, lb;
	char *da = e2e_keep(read_file(a, &la)), *db = e2e_keep(read_file(b, &lb));
	cr_assert(la == lb && !memcmp(da, db, la), "two compiles of one script differ");
}

NOKERNEL_TEST(object, dump_views)
{
	const char *src = e2e_src("tst.getppid_count.d");
	const struct {
		const char *flag, *needle;
	} views[] = {
		{ "--dump-tokens", "getppid" },
		{ "--dump-ast", "count" },
		{ "--dump-ir", "define" },
	};
	for (size_t i = 0; i < sizeof(views) / sizeof(views[0]); i++) {
		struct run_result r;
		e2e_run(&r, DCC_BIN, views[i].flag, src, NULL);
		cr_assert_eq(r.status, 0, "dcc %s: status %d\n%s", views[i].flag, r.status, r.err);
		cr_assert(strstr(r.out, views[i].needle), "dcc %s: no '%s' in:\n%.3000s",
			  views[i].flag, views[i].needle, r.out);
		run_result_free(&r);
	}
	/* --dump-meta decodes an object's metadata section. */
	const char *obj = e2e_build_src("tst.getppid_count");
	struct run_result r;
	e2e_run(&r, DCC_BIN, "--dump-meta", obj, NULL);
	cr_assert_eq(r.status, 0, "dcc --dump-meta: status %d\n%s", r.status, r.err);
	cr_assert(strstr(r.out, "getppid"), "dcc --dump-meta: no 'getppid' in:\n%.3000s", r.out);
	run_result_free(&r);
}

/* Every sample compiles. */
NOKERNEL_TEST(object, samples_compile)
{
	char dir[512];
	snprintf(dir, sizeof(dir), "%s/../samples", TESTS_SRC_DIR);
	DIR *d = opendir(dir);
	cr_assert_not_null(d, "no %s", dir);
	int n = 0;
	for (struct dirent *e; (e = readdir(d));) {
		size_t l = strlen(e->d_name);
		if (l < 3 || strcmp(e->d_name + l - 2, ".d"))
			continue;
		char *path = e2e_fmt("%s/%s", dir, e->d_name);
		e2e_compile(path, e2e_tmp("sample.bpf.o"));
		n++;
	}
	closedir(d);
	cr_assert_geq(n, 5, "only %d samples", n);
}

/* dcc -l lists what descriptions match, dtrace -l's way. */
NOKERNEL_TEST(object, list_named_probes)
{
	struct run_result r;
	const char *row = "%5d %10s %17s %33s %s\n";

	e2e_run(&r, DCC_BIN, "-l", "-n", "syscall::getppid:", "-n", "dtrace:::BEGIN", "-n",
		"profile:::tick-1s", NULL);
	char want[1024];
	size_t n = (size_t)snprintf(want, sizeof(want), "%5s %10s %17s %33s %s\n", "ID",
				    "PROVIDER", "MODULE", "FUNCTION", "NAME");
	n += (size_t)snprintf(want + n, sizeof(want) - n, row, 1000 + 2 * 110, "syscall",
			      "vmlinux", "getppid", "entry");
	n += (size_t)snprintf(want + n, sizeof(want) - n, row, 1000 + 2 * 110 + 1, "syscall",
			      "vmlinux", "getppid", "return");
	n += (size_t)snprintf(want + n, sizeof(want) - n, row, 1, "dtrace", "", "", "BEGIN");
	snprintf(want + n, sizeof(want) - n, row, 113, "profile", "", "", "tick-1s");
	e2e_expect(&r, 0, want);
	run_result_free(&r);

	e2e_run(&r, DCC_BIN, "-l", "-n", "nosuch:::", NULL);
	cr_assert_eq(r.status, 1);
	cr_assert_not_null(strstr(r.err, "error: probe description nosuch::: does not match "
				  "any probes"), "%s", r.err);
	run_result_free(&r);
}
