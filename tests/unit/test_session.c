/*
 * The embedding API without the kernel: dcc_session__open() checks an
 * object and opens it, returns negative errno values, and writes its one-line
 * reasons to the error stream it was given, never to stderr or stdout.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "dcc/session.h"

struct errbuf {
	char *text;
	size_t len;
	FILE *f;
};

static struct dcc_runtime_opts opts_to(struct errbuf *e)
{
	struct dcc_runtime_opts o = { .sz = sizeof(o), .progname = "app" };

	e->f = open_memstream(&e->text, &e->len);
	o.err = e->f;
	return o;
}

/* dcc compiles `program` to a temporary object; its bytes. */
static char *compile(const char *program, size_t *size)
{
	char dir[] = "/tmp/dcc-session.XXXXXX", cmd[512], path[128];
	struct run_result r;
	char *obj;

	cr_assert(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/x.bpf.o", dir);
	snprintf(cmd, sizeof(cmd), "%s --btf %s -n '%s' -o %s", DCC_BIN, PINNED_BTF, program,
		 path);
	cr_assert_eq(run_sh(&r, cmd, 60), 0);
	cr_assert_eq(r.status, 0, "dcc failed:\n%s", r.err);
	run_result_free(&r);
	obj = read_file(path, size);
	cr_assert(obj);
	unlink(path);
	rmdir(dir);
	return obj;
}

Test(session, not_an_object)
{
	struct errbuf e;
	struct dcc_runtime_opts o = opts_to(&e);
	struct dcc_session *s = (struct dcc_session *)1;

	cr_assert_eq(dcc_session__open("hello", 5, &o, &s), -ENOEXEC);
	cr_assert_null(s);
	fclose(e.f);
	cr_assert_str_eq(e.text, "app: not an ELF file\n");
	free(e.text);
}

Test(session, bad_calls)
{
	cr_assert_eq(dcc_session__open("x", 1, NULL, NULL), -EINVAL);
	cr_assert_eq(dcc_session__start(NULL), -EINVAL);
	cr_assert_eq(dcc_session__poll(NULL, 0), -EINVAL);
	cr_assert_eq(dcc_session__stop(NULL), -EINVAL);
	cr_assert_null(dcc_session__runtime(NULL));
	dcc_session__free(NULL);
}

Test(session, opens_without_loading)
{
	struct errbuf e;
	struct dcc_runtime_opts o = opts_to(&e);
	struct dcc_session *s = NULL;
	size_t size;
	char *obj = compile("BEGIN { exit(0); }", &size);

	cr_assert_eq(dcc_session__open(obj, size, &o, &s), 0);
	cr_assert_not_null(dcc_session__runtime(s));
	cr_assert_not_null(dcc_session__object(s));
	/* nothing loaded: no poll, no stop */
	cr_assert_eq(dcc_session__poll(s, 0), -EINVAL);
	cr_assert_eq(dcc_session__stop(s), -EINVAL);
	dcc_session__free(s);
	free(obj);
	fclose(e.f);
	cr_assert_str_eq(e.text, "");
	free(e.text);
}

Test(session, destructive_needs_the_option)
{
	struct errbuf e;
	struct dcc_runtime_opts o = opts_to(&e);
	const char *x[] = { "destructive" };
	struct dcc_session *s = NULL;
	size_t size;
	char *obj = compile("BEGIN { system(\"true\"); }", &size);

	cr_assert_eq(dcc_session__open(obj, size, &o, &s), -EPERM);
	cr_assert_null(s);
	fflush(e.f);
	cr_assert_str_eq(e.text,
			 "app: could not enable tracing: Destructive actions not allowed\n");
	o.xopts = x;
	o.nxopts = 1;
	cr_assert_eq(dcc_session__open(obj, size, &o, &s), 0);
	dcc_session__free(s);
	free(obj);
	fclose(e.f);
	free(e.text);
}
