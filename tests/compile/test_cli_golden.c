/*
 * Golden tests through the dcc command line, no kernel needed:
 *   compile/sema/err_X.d  `dcc -e err_X.d` must exit 1 and print exactly err_X.err
 *                         (not empty) on stderr;
 *   compile/sema/ok_X.d   `dcc -e ok_X.d` must exit 0 and print nothing (ok_X.err is
 *                         empty);
 *   compile/meta/X.d      `dcc --dump-meta X.d` must exit 0 and print exactly X.meta;
 *   compile/header/X.d    `dcc -h X.d -o -` must exit 0 and print exactly X.h.
 * Each runs in its folder so names in messages are just "X.d", against the
 * pinned kernel types of tests/data/vmlinux-6.18.btf.gz.
 * UPDATE=1 rewrites the expected files instead, but only with what the name
 * promises: it refuses (fails, writes nothing) when an err_ file compiles or
 * an ok_ or meta file does not, so an update can never turn a must-fail test
 * into a must-pass one. Renaming the file is the way to change that.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"

struct golden {
	char dir[16];
	char name[112];
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct golden *)a)->name, ((const struct golden *)b)->name);
}

static void free_params(struct criterion_test_params *p)
{
	cr_free(p->params);
}

static struct criterion_test_params list(const char *dir)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/compile/%s", TESTS_SRC_DIR, dir);
	DIR *d = opendir(path);
	size_t n = 0, cap = 512;
	struct golden *g = cr_malloc(cap * sizeof(*g));
	struct dirent *e;
	while (d && (e = readdir(d)) && n < cap) {
		size_t len = strlen(e->d_name);
		if (len < 3 || strcmp(e->d_name + len - 2, ".d") || len >= sizeof(g->name))
			continue;
		memset(&g[n], 0, sizeof(g[n]));
		strcpy(g[n].dir, dir);
		memcpy(g[n].name, e->d_name, len - 2);
		n++;
	}
	if (d)
		closedir(d);
	qsort(g, n, sizeof(*g), by_name);
	return cr_make_param_array(struct golden, g, n, free_params);
}

/* args[] of syscall probes are typed from tracefs: make sure it is there, as
 * dtrun would (root only; the tests needing it say so otherwise). */
static void tracefs(void)
{
	if (access("/sys/kernel/tracing/events", F_OK))
		(void)system("mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null");
}

ParameterizedTestParameters(cli, sema)
{
	return list("sema");
}

ParameterizedTestParameters(cli, meta)
{
	return list("meta");
}

ParameterizedTestParameters(cli, header)
{
	return list("header");
}

/* Whether the file must fail to compile: err_ in sema/, never in meta/. */
static bool must_fail(const struct golden *g)
{
	if (strcmp(g->dir, "sema"))
		return false;
	cr_assert(!strncmp(g->name, "err_", 4) || !strncmp(g->name, "ok_", 3),
		  "sema/%s.d: the name must start with err_ (errors expected) or ok_ (none)",
		  g->name);
	return !strncmp(g->name, "err_", 4);
}

static void check(struct golden *g, const char *flag, const char *ext, bool use_stderr)
{
	char dir[512], file[160], expect_path[700];
	snprintf(dir, sizeof(dir), "%s/compile/%s", TESTS_SRC_DIR, g->dir);
	snprintf(file, sizeof(file), "%s.d", g->name);
	snprintf(expect_path, sizeof(expect_path), "%s/%s.%s", dir, g->name, ext);
	cr_assert_eq(chdir(dir), 0);
	char *argv[] = { DCC_BIN, "--btf", PINNED_BTF, (char *)flag, file, NULL, NULL, NULL };
	if (!strcmp(flag, "-h")) { /* the header on stdout */
		argv[5] = "-o";
		argv[6] = "-";
	}
	struct run_result r;
	cr_assert_eq(run_cmd(&r, argv, NULL, 60), 0);
	const char *got = use_stderr ? r.err : r.out;
	size_t got_len = use_stderr ? r.err_len : r.out_len;
	/* args[] of syscall probes are typed from tracefs, which only root reads:
	 * as another user, the goldens that need it are skipped, by name. */
	if (use_stderr && access("/sys/kernel/tracing/events/syscalls", R_OK | X_OK) &&
	    strstr(got, "args[] of syscall probes needs tracefs")) {
		run_result_free(&r);
		cr_skip_test("%s/%s.d types args[] from tracefs, which this user cannot read",
			     g->dir, g->name);
	}
	/* Checked before anything is written, so that UPDATE=1 cannot flip it. */
	bool fail = must_fail(g);
	cr_assert_eq(r.status, fail ? 1 : 0, "%s/%s.d: exit status %d, want %d (%s)\n%s", g->dir,
		     g->name, r.status, fail ? 1 : 0, fail ? "errors expected" : "must compile",
		     r.err);
	if (use_stderr)
		cr_assert_eq(got_len > 0, fail, "%s/%s.d: %s", g->dir, g->name,
			     fail ? "no diagnostic printed" : "diagnostics printed");
	char *want = golden_expected(expect_path, got, got_len);
	cr_assert_not_null(want, "missing %s (run with UPDATE=1)", expect_path);
	cr_expect_str_eq(got, want, "%s/%s.d: output differs", g->dir, g->name);
	free(want);
	run_result_free(&r);
}

ParameterizedTest(struct golden *g, cli, sema)
{
	tracefs();
	check(g, "-e", "err", true);
}

ParameterizedTest(struct golden *g, cli, meta)
{
	check(g, "--dump-meta", "meta", false);
}

ParameterizedTest(struct golden *g, cli, header)
{
	check(g, "-h", "h", false);
}
