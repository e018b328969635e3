/*
 * The D library's tree from three sources: parsed by the compile itself
 * (parse_dlib), decoded from the tree parsed when dcc was built (what dcc
 * does), and copied from a tree parsed once in the process
 * (compile_dlib_parse, what the fuzzer does). Each gives the same object
 * and the same diagnostics, byte for byte, and the cached tree is left as
 * it was found (sema rewrites the nodes it checks: it must be given a copy).
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "btf.h"
#include "compile.h"
#include "helpers.h"

struct result {
	int rc;
	void *obj;
	size_t size;
	char *errs;
};

/* dlib: the cached tree; PARSE: parse the library's text; NULL: the prebuilt tree */
#define PARSE ((struct dlib *)-1)

static void compile_here(const char *name, const char *text, bool check_only,
			 struct dlib *dlib, struct result *r)
{
	size_t elen;
	FILE *errs = open_memstream(&r->errs, &elen);
	cr_assert_not_null(errs);
	const char *margv[] = { name };
	struct compile_opts o = {
		.name = name,
		.text = text,
		.len = strlen(text),
		.label = name,
		.macro_argv = margv,
		.macro_argc = 1,
		.btf_path = PINNED_BTF,
		.check_only = check_only,
		.errs = errs,
		.dlib = dlib == PARSE ? NULL : dlib,
		.parse_dlib = dlib == PARSE,
	};
	r->rc = compile_source(&o, &r->obj, &r->size);
	fclose(errs);
}

static void read_all(int fd, void *buf, size_t n)
{
	for (size_t at = 0; at < n;) {
		ssize_t k = read(fd, (char *)buf + at, n - at);
		cr_assert_gt(k, 0, "short read from the compiling child");
		at += (size_t)k;
	}
}

/* Each compile that reaches codegen in a child of its own: LLVM 19's BPF
 * backend keeps the CO-RE access globals of a module in a static map, so a
 * second module in the same process that makes the same relocation uses a
 * freed global (two compiles of a script reading curthread's members crash
 * in LLVMRunPasses). dcc compiles one source per process; the fuzzer stops
 * before codegen. */
static void compile(const char *name, const char *text, bool check_only, struct dlib *dlib,
		    struct result *r)
{
	if (check_only) {
		compile_here(name, text, true, dlib, r);
		return;
	}
	int fds[2];
	cr_assert_eq(pipe(fds), 0);
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		close(fds[0]);
		compile_here(name, text, false, dlib, r);
		size_t elen = strlen(r->errs);
		if (write(fds[1], &r->rc, sizeof(r->rc)) < 0 ||
		    write(fds[1], &r->size, sizeof(r->size)) < 0 ||
		    write(fds[1], &elen, sizeof(elen)) < 0 ||
		    (r->size && write(fds[1], r->obj, r->size) < 0) ||
		    write(fds[1], r->errs, elen) < 0)
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	size_t elen;
	read_all(fds[0], &r->rc, sizeof(r->rc));
	read_all(fds[0], &r->size, sizeof(r->size));
	read_all(fds[0], &elen, sizeof(elen));
	r->obj = r->size ? malloc(r->size) : NULL;
	r->errs = calloc(1, elen + 1);
	read_all(fds[0], r->obj, r->size);
	read_all(fds[0], r->errs, elen);
	close(fds[0]);
	int st;
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s: the compiling child failed", name);
}

/* Compiles text parsing the library, from the prebuilt tree and from dlib
 * (twice: the first must not change what the second sees) and asserts the
 * four give the same bytes. */
static void same_both_ways(struct dlib *dlib, const char *name, const char *text,
			   bool check_only)
{
	struct result plain, cached[3];
	compile(name, text, check_only, PARSE, &plain);
	for (int i = 0; i < 3; i++) {
		struct result *c = &cached[i];
		compile(name, text, check_only, i ? dlib : NULL, c);
		cr_assert_eq(c->rc, plain.rc, "%s: rc %d, %d parsing the library", name, c->rc,
			     plain.rc);
		cr_assert_str_eq(c->errs, plain.errs, "%s: diagnostics differ", name);
		cr_assert_eq(c->size, plain.size, "%s: %zu bytes, %zu parsing the library", name,
			     c->size, plain.size);
		cr_assert(!c->size || !memcmp(c->obj, plain.obj, c->size), "%s: objects differ",
			  name);
		free(c->obj);
		free(c->errs);
	}
	free(plain.obj);
	free(plain.errs);
}

/* library inlines, translators, kernel types through the library's
 * typedefs, and an error whose note points into the library */
static const char *const scripts[][2] = {
	{ "errno.d", "syscall::openat:return /errno == ENOENT || errno == EACCES/ "
		     "{ @[execname, errno] = count(); }" },
	{ "psinfo.d", "profile-97 { printf(\"%s %d %d\\n\", curpsinfo->pr_fname, "
		      "curpsinfo->pr_pid, curlwpsinfo->pr_lwpid); }" },
	{ "cast.d", "BEGIN { trace((psinfo_t *)0 == NULL); trace(sizeof (lwpsinfo_t)); exit(0); }" },
	{ "redefine.d", "inline int EPERM = 7;\nBEGIN { trace(EPERM); }" },
	{ "typo.d", "BEGIN { trace(curpsinfo->pr_nosuch); }" },
	/* a syntax error after a cast to a library typedef: the cached
	 * tree's nodes are only copied once the script parses, its typedef
	 * names before */
	{ "syntax.d", "BEGIN { trace((psinfo_t *)0 +); }" },
};

Test(dlib, same_objects_and_diagnostics)
{
	struct dlib *dlib = compile_dlib_parse();
	cr_assert_not_null(dlib);
	for (size_t i = 0; i < sizeof(scripts) / sizeof(scripts[0]); i++) {
		same_both_ways(dlib, scripts[i][0], scripts[i][1], false);
		same_both_ways(dlib, scripts[i][0], scripts[i][1], true);
	}
	compile_dlib_free(dlib);
}

/* the errors above really are errors (else the diagnostics compared would
 * prove little), one of them about a library name */
Test(dlib, errors_are_errors)
{
	struct dlib *dlib = compile_dlib_parse();
	struct result r;
	compile("redefine.d", scripts[3][1], true, dlib, &r);
	cr_assert_eq(r.rc, 1);
	cr_assert(strstr(r.errs, "redefine.d:1:1: error: 'EPERM' is defined twice"), "%s", r.errs);
	free(r.errs);
	compile("typo.d", scripts[4][1], true, dlib, &r);
	cr_assert_eq(r.rc, 1);
	cr_assert(strstr(r.errs, "pr_nosuch"), "%s", r.errs);
	free(r.errs);
	compile("syntax.d", scripts[5][1], true, dlib, &r);
	cr_assert_eq(r.rc, 1);
	cr_assert(strstr(r.errs, "syntax.d:1:30: error: "), "%s", r.errs);
	free(r.errs);
	compile_dlib_free(dlib);
}

/* Every .d in dir compiled both ways; must_compile: each compiles (the
 * fuzzer's seed scripts: one that stopped compiling would drop out of the
 * seeds unseen). Returns how many. */
static int same_for_dir(struct dlib *dlib, const char *dir, bool must_compile)
{
	DIR *d = opendir(dir);
	cr_assert_not_null(d, "%s", dir);
	int n = 0;
	for (struct dirent *e; (e = readdir(d));) {
		size_t l = strlen(e->d_name);
		if (l < 3 || strcmp(e->d_name + l - 2, ".d"))
			continue;
		char path[512];
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		size_t len;
		char *text = read_file(path, &len);
		cr_assert_not_null(text, "%s", path);
		same_both_ways(dlib, e->d_name, text, false);
		if (must_compile) {
			struct result r;
			compile(e->d_name, text, false, dlib, &r);
			cr_assert_eq(r.rc, 0, "%s: %s", path, r.errs);
			cr_assert_gt(r.size, 0, "%s", path);
			free(r.obj);
			free(r.errs);
		}
		free(text);
		n++;
	}
	closedir(d);
	return n;
}

Test(dlib, samples_and_fuzz_seeds_same_objects, .timeout = 110)
{
	struct dlib *dlib = compile_dlib_parse();
	int n = same_for_dir(dlib, TESTS_SRC_DIR "/../samples", false);
	cr_assert_geq(n, 5, "only %d samples", n);
	n = same_for_dir(dlib, TESTS_SRC_DIR "/fuzz/seeds", true);
	cr_assert_geq(n, 3, "only %d fuzz seeds", n);
	compile_dlib_free(dlib);
}
