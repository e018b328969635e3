/*
 * Parser golden tests: every tests/compile/parse/X.d is parsed as "X.d" with
 * the diagnostics captured, and the text must equal X.err byte for byte
 * (ok_*.d have an empty .err). UPDATE=1 rewrites the .err files instead, but
 * refuses (fails, writes nothing) when an ok_ file has errors or another has
 * none: only a rename changes whether a file must fail.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "diag.h"
#include "helpers.h"
#include "parse.h"

#define PARSE_DIR TESTS_SRC_DIR "/compile/parse"

struct golden {
	char name[128];
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct golden *)a)->name, ((const struct golden *)b)->name);
}

static void free_params(struct criterion_test_params *p)
{
	cr_free(p->params);
}

ParameterizedTestParameters(golden, parse)
{
	DIR *d = opendir(PARSE_DIR);
	size_t n = 0, cap = 256;
	struct golden *g = cr_malloc(cap * sizeof(*g));
	struct dirent *e;
	while (d && (e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len < 3 || strcmp(e->d_name + len - 2, ".d") || len >= sizeof(g->name))
			continue;
		if (n == cap)
			break;
		memset(&g[n], 0, sizeof(g[n]));
		memcpy(g[n].name, e->d_name, len - 2);
		n++;
	}
	if (d)
		closedir(d);
	qsort(g, n, sizeof(*g), by_name);
	return cr_make_param_array(struct golden, g, n, free_params);
}

/* Parse `text` as `name`; returns the diagnostics (malloc'd). */
static char *parse_diags(const char *name, const char *text, size_t len, int *errors)
{
	char *out = NULL;
	size_t out_len = 0;
	FILE *f = open_memstream(&out, &out_len);
	struct diag *dg = diag_new(f);
	struct arena *ar = arena_create();
	uint32_t file = diag_add_source(dg, name, text, len);
	struct node *prog = parse_program(ar, dg, file, text, len, NULL);
	cr_assert_not_null(prog);
	cr_assert_eq(prog->kind, N_PROGRAM);
	*errors = diag_errors(dg);
	diag_free(dg);
	arena_destroy(ar);
	fclose(f);
	return out;
}

ParameterizedTest(struct golden *g, golden, parse)
{
	char path[512], name[160];
	snprintf(path, sizeof(path), "%s/%s.d", PARSE_DIR, g->name);
	snprintf(name, sizeof(name), "%s.d", g->name);
	size_t len;
	char *text = read_file(path, &len);
	cr_assert_not_null(text, "cannot read %s", path);
	int errors;
	char *got = parse_diags(name, text, len, &errors);

	/* ok_ files are the valid programs; every other file must fail. Checked
	 * before an update writes anything. */
	if (!strncmp(g->name, "ok_", 3))
		cr_assert_eq(errors, 0, "%s: %d errors\n%s", name, errors, got);
	else
		cr_assert_gt(errors, 0, "%s: no error reported", name);
	snprintf(path, sizeof(path), "%s/%s.err", PARSE_DIR, g->name);
	char *want = golden_expected(path, got, strlen(got));
	cr_assert_not_null(want, "missing %s (run with UPDATE=1)", path);
	cr_expect_str_eq(got, want, "%s: diagnostics differ\n--- got:\n%s--- want:\n%s", name,
			 got, want);
	free(want);
	free(got);
	free(text);
}

/* The golden set itself: enough malformed inputs, and a .err for each. */
Test(golden, inventory)
{
	DIR *d = opendir(PARSE_DIR);
	cr_assert_not_null(d);
	int bad = 0, ok = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len < 3 || strcmp(e->d_name + len - 2, ".d"))
			continue;
		if (!strncmp(e->d_name, "ok_", 3))
			ok++;
		else
			bad++;
	}
	closedir(d);
	cr_expect_geq(bad, 30, "only %d malformed inputs", bad);
	cr_expect_geq(ok, 3, "only %d valid inputs", ok);
}
