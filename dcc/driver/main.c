/*
 * dcc's command line: compile a D script to a BPF object, show each step's
 * product (--dump-*), or compile in memory and run it (`dcc run`).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "asan.h"
#include "compile.h"
#include "cpp.h"
#include "header.h"
#include "meta_dump.h"
#include "skel.h"
#include "loader.h"
#include "verify.h"

static const char usage_text[] =
	"usage: dcc [options] script.d [arg ...]     compile to script.bpf.o\n"
	"       dcc -h [-o FILE] [-s] provider.d     write a C header of USDT probes\n"
	"       dcc run [options] [-s] script.d [arg ...]\n"
	"       dcc run [options] -n 'probe-desc [/pred/] { actions }' ...\n"
	"       dcc --dump-meta object.bpf.o\n"
	"       dcc verify [-v] [-f json] object.bpf.o [--btf FILE|DIR ...]\n"
	"\n"
	"compile options:\n"
	"  -o FILE        write the object to FILE (default: script name + .bpf.o)\n"
	"  --skel FILE    also write a libbpf skeleton of the object (bpftool's) with\n"
	"                 dcc's helpers to run it through libdcc-runtime\n"
	"  -n DESC        compile a probe description instead of a file\n"
	"  -i ID          the same, the probe named by its id as dcc -l lists it\n"
	"  -P PROV, -m [PROV:]MOD, -f [[PROV:]MOD:]FUNC\n"
	"                 a description by its last part, as dtrace's (-m profile\n"
	"                 is :profile::)\n"
	"  -s FILE        the script (as an operand)\n"
	"  -h             with a script of provider definitions: write a C header\n"
	"                 (default provider.h) with a macro a probe, as dtrace -h;\n"
	"                 alone: this help\n"
	"  -e             check the script and exit without writing an object\n"
	"  -l             list the probes the script or -n descriptions match (all\n"
	"                 probes without either), as dtrace -l does; with -v (-lv)\n"
	"                 each probe's argument types too\n"
	"  -p PID, -c CMD with -l: list the USDT probes (PROV$target:::) of process\n"
	"                 PID or of CMD, started and stopped at its entry point\n"
	"  -Z             allow descriptions that match no probes\n"
	"  -v             print the time each compiler stage took on stderr\n"
	"  -C             run the C preprocessor first (a script with #if, #define,\n"
	"                 #include... lines needs it)\n"
	"  -D NAME[=V], -U NAME, -I DIR, -H\n"
	"                 cpp's definitions, include directories, included files\n"
	"  -x opt[=val]   set an option, as #pragma D option does before the script\n"
	"  --btf FILE     compile against FILE's kernel types (default: the running\n"
	"                 kernel's /sys/kernel/btf/vmlinux)\n"
	"  --emit=KIND    write KIND instead of the object: ir (LLVM IR, optimized)\n"
	"                 or asm (BPF assembly, as llvm-objdump -d spells it), to -o\n"
	"                 FILE or stdout; obj: the object (the default)\n"
	"  --version      print dcc's version; -h, --help: this text\n"
	"  --dump-tokens, --dump-ast, --dump-ir, --dump-meta\n"
	"                 print that step's product on stdout\n"
	"run options (as dtrace's): -q -o FILE -c CMD -p PID -x opt[=val] -b SIZE -w -v\n"
	"  and -e (compile, then exit), -Z, -C -D -U -I -H,\n"
	"  --metrics [ADDR:]PORT (the aggregations for Prometheus at /metrics)\n"
	"args after the script are the macro arguments $1, $2, ...\n";

static char *read_all(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	size_t k;
	while ((k = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += k;
		if (cap - n < 2)
			buf = realloc(buf, cap *= 2);
	}
	buf[n] = 0;
	if (f != stdin)
		fclose(f);
	*len = n;
	return buf;
}

/* Several -n descriptions are one program, a clause each. */
struct sources {
	char *text;
	size_t len;
	const char *script;
	char *label;
	int ndesc;
	bool bare; /* an object for a file: named by the script's base name */
};

static void add_desc(struct sources *src, const char *d)
{
	size_t n = strlen(d);
	src->text = realloc(src->text, src->len + n + 2);
	memcpy(src->text + src->len, d, n);
	src->len += n;
	src->text[src->len++] = '\n';
	src->text[src->len] = 0;
	/* dtrace names a -n by its probe description: the text before the
	 * predicate or the body, trailing space included ('BEGIN ') */
	if (!src->label)
		src->label = strndup(d, strcspn(d, "/{"));
	src->ndesc++;
}

/* dtrace's probe specifiers by part: -P PROV, -m [PROV:]MOD and
 * -f [[PROV:]MOD:]FUNC are descriptions whose last part given is that field
 * (part 0, 1 or 2): -m profile is :profile::, -f syscall::read is
 * syscall::read:. A predicate or actions after it are kept. More parts than
 * the field allows is an invalid specifier, as in dtrace. */
static int add_desc_by_part(struct sources *src, const char *arg, int part)
{
	static const char *const opt[] = { "-P", "-m", "-f" };
	size_t dlen = strcspn(arg, " \t\n/{");
	int colons = 0;
	for (size_t i = 0; i < dlen; i++)
		colons += arg[i] == ':';
	if (!dlen || colons > part) {
		fprintf(stderr, "dcc: invalid probe specifier %s %s: too many parts for %s\n",
			opt[part], arg, part ? part == 1 ? "a module" : "a function" : "a provider");
		return 1;
	}
	size_t n = strlen(arg) + 4;
	char *d = malloc(n);
	if (!d)
		return 1;
	snprintf(d, n, "%.*s%.*s%.*s%s", part - colons, ":::", (int)dlen, arg, 3 - part, ":::",
		 arg + dlen);
	add_desc(src, d);
	free(d);
	return 0;
}

static int load_script(struct sources *src, const char *path)
{
	src->script = path;
	src->text = read_all(path, &src->len);
	if (!src->text) {
		fprintf(stderr, "dcc: error: cannot read %s: %s\n", path, strerror(errno));
		return -1;
	}
	/* named as given, as dtrace names it ("script 'dir/x.d' matched...") */
	src->label = strdup(path);
	return 0;
}

static const char *btf_path;

/* -x settings of the command line: given to the compiler, which records
 * them in the object as pragmas are; `dcc run` gives them to the runtime too */
struct xopts {
	const char **v;
	int n;
};

static bool list_probes;
/* dcc -l -p PID / -c CMD: the process whose USDT notes are listed */
static const char *list_cmd;
static pid_t list_pid;

struct lister_ctx {
	struct loader_lister *l;
	bool tried;
};

/* sema's callback: the process is grabbed (or the command started) when
 * the first USDT description is listed */
static int list_usdt(void *ctx, const char *desc, uint32_t pid, FILE *out)
{
	struct lister_ctx *lc = ctx;

	if (!lc->tried) {
		lc->tried = true;
		lc->l = loader_lister_open(list_pid, list_cmd, "dcc");
	}
	if (!lc->l)
		return -1;
	fflush(out);
	return loader_list_usdt(lc->l, desc, pid, out) ? -1 : 0;
}
/* -v (or dcc run -v): each compiler stage's time on stderr */
static bool verbose;
/* --emit: 0 the object, 1 LLVM IR, 2 BPF assembly (enum cg_emit_kind) */
static int emit_kind;

/* -C and its company; -x cpp, define=, undef=, incdir=, cpppath= land here
 * too, as they shape the text before the compiler reads it */
static struct cpp_opts cpp;

static int cpp_arg(const char *flag, const char *v)
{
	char *a = malloc(strlen(flag) + strlen(v) + 1);
	const char **grown = realloc(cpp.args, (size_t)(cpp.nargs + 1) * sizeof(*grown));
	if (!a || !grown) {
		free(a);
		return -1;
	}
	strcpy(a, flag);
	strcat(a, v);
	cpp.args = grown;
	cpp.args[cpp.nargs++] = a;
	return 0;
}

/* A cpp option of the command line (-C -D -U -I -H); false for other letters. */
static bool cpp_option(int opt, const char *arg)
{
	switch (opt) {
	case 'C':
		cpp.enabled = true;
		return true;
	case 'H':
		cpp.hdrs = true;
		return true;
	case 'D':
		return !cpp_arg("-D", arg);
	case 'U':
		return !cpp_arg("-U", arg);
	case 'I':
		return !cpp_arg("-I", arg);
	}
	return false;
}

/* Takes -x's preprocessor settings out of the list the compiler sees. */
static int cpp_xopts(struct xopts *x)
{
	int k = 0;
	for (int i = 0; i < x->n; i++) {
		const char *o = x->v[i], *eq = strchr(o, '=');
		size_t n = eq ? (size_t)(eq - o) : strlen(o);
		const char *v = eq ? eq + 1 : "";
#define IS(name) (n == strlen(name) && !strncmp(o, name, n))
		if (IS("cpp"))
			cpp.enabled = true;
		else if (IS("cpphdrs"))
			cpp.hdrs = true;
		else if (IS("cpppath"))
			cpp.path = v;
		else if (IS("stdc")) {
			/* -Xs: K&R C, no __STDC__; a, c and t keep cpp's ISO C */
			if (!strcmp(v, "s"))
				cpp_arg("-traditional-cpp", "");
		}
		else if (IS("define") || IS("undef") || IS("incdir")) {
			if (!*v) {
				fprintf(stderr, "dcc: failed to set -x %s: Invalid value for specified "
					"option\n", o);
				return -1;
			}
			cpp_arg(IS("define") ? "-D" : IS("undef") ? "-U" : "-I", v);
		} else
			x->v[k++] = o;
#undef IS
	}
	x->n = k;
	return 0;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static int compile_sources(struct sources *src, int argc, char **argv, bool check_only,
			   bool zdefs, int dumps, const struct xopts *x, void **obj, size_t *size)
{
	struct xopts cx = { calloc((size_t)x->n + 1, sizeof(char *)), x->n };
	if (x->n) /* x->v may be NULL when there are none */
		memcpy(cx.v, x->v, (size_t)x->n * sizeof(char *));
	if (cpp_xopts(&cx)) {
		free(cx.v);
		return 1;
	}
	x = &cx;
	char *pre = NULL;
	size_t prelen = 0;
	if (cpp.enabled) { /* without -C a directive is an error, as in dtrace */
		pre = cpp_run(&cpp, src->script, src->text, src->len, &prelen);
		if (!pre) {
			free(cx.v);
			return 1;
		}
	}
	/* $0 is the script name, then the arguments after it */
	const char **margv = calloc((size_t)argc + 2, sizeof(char *));
	margv[0] = src->script ? src->script : "dcc";
	for (int i = 0; i < argc; i++)
		margv[i + 1] = argv[i];
	struct lister_ctx lc = { 0 };
	struct compile_opts co = {
		.name = src->script ? src->script : "<description>",
		.text = pre ? pre : src->text,
		.len = pre ? prelen : src->len,
		.label = src->label,
		.source = src->text,
		.source_len = src->len,
		.obj_name = src->bare && src->script ? base_name(src->script) : NULL,
		.description = !src->script,
		.macro_argv = margv,
		.macro_argc = argc + 1,
		.zdefs = zdefs,
		.btf_path = btf_path,
		.xopts = x->v,
		.nxopts = x->n,
		.check_only = check_only,
		.list = list_probes,
		.list_usdt = list_cmd || list_pid ? list_usdt : NULL,
		.list_ctx = &lc,
		.dump_tokens = dumps & 1,
		.dump_ast = dumps & 2,
		.dump_ir = dumps & 4,
		.emit = emit_kind,
		.verbose = verbose,
	};
	int rc = compile_source(&co, obj, size);
	loader_lister_close(lc.l);
	free(margv);
	free(pre);
	free(cx.v);
	return rc;
}

struct run_ctx {
	struct sources *src;
	struct loader_opts *lo;
	bool zdefs, check_only;
};

/* -b SIZE is -x bufsize=SIZE */
static int run_bufsize(struct loader_opts *lo, const char *arg)
{
	const char *why;
	if (loader_opt_check("bufsize", arg, &why)) {
		fprintf(stderr, "dcc: failed to set -b %s: %s\n", arg, why);
		return 1;
	}
	/* the setting lives as long as the process, as argv's do: no leak */
	static char settings[8][64];
	static int nsettings;
	if (nsettings == 8 || strlen(arg) + sizeof("bufsize=") > sizeof(settings[0])) {
		fprintf(stderr, "dcc: failed to set -b %s: Invalid value for specified option\n",
			arg);
		return 1;
	}
	char *x = settings[nsettings];
	const char **grown = realloc((void *)lo->xopts, (size_t)(lo->nxopts + 1) * sizeof(*grown));
	if (!grown)
		return 1;
	nsettings++;
	snprintf(x, sizeof(settings[0]), "bufsize=%s", arg);
	grown[lo->nxopts++] = x;
	lo->xopts = grown;
	return 0;
}

static int run_extra(int opt, const char *arg, void *ctx)
{
	struct run_ctx *rc = ctx;
	if (opt == 's') {
		if (rc->src->script || rc->src->ndesc) {
			fprintf(stderr, "dcc: error: give one -s script or -n descriptions\n");
			return -1;
		}
		return load_script(rc->src, arg);
	}
	/* -i names probes by id, and dtrace reads its argument as -n's */
	if (opt == 'n' || opt == 'i') {
		if (rc->src->script) {
			fprintf(stderr, "dcc: error: give one -s script or -n descriptions\n");
			return -1;
		}
		add_desc(rc->src, arg);
		return 0;
	}
	if (opt == 'P' || opt == 'm' || opt == 'f') {
		if (rc->src->script) {
			fprintf(stderr, "dcc: error: give one -s script or -n descriptions\n");
			return -1;
		}
		return add_desc_by_part(rc->src, arg, opt == 'P' ? 0 : opt == 'm' ? 1 : 2);
	}
	if (opt == 'Z') {
		rc->zdefs = true;
		return 0;
	}
	if (opt == 'e') {
		rc->check_only = true;
		return 0;
	}
	if (opt == 'b')
		return run_bufsize(rc->lo, arg);
	if (opt == 'X') {
		/* -X a|c|s|t is -x stdc= */
		if (strlen(arg) != 1 || !strchr("acst", arg[0])) {
			fprintf(stderr, "dcc: failed to set -X %s: Invalid value for specified "
				"option\n", arg);
			return 1;
		}
		if (arg[0] == 's')
			cpp_arg("-traditional-cpp", "");
		return 0;
	}
	return cpp_option(opt, arg) ? 0 : -1;
}

static int cmd_run(int argc, char **argv)
{
	struct sources src = { 0 };
	struct loader_opts lo = { .progname = "dcc", .usage = usage_text, .trust_object = true,
				  .own_object = true };
	struct run_ctx ctx = { .src = &src, .lo = &lo };
	int first = loader_parse_opts(argc, argv, &lo, "s:n:i:P:m:f:ZeCHD:U:I:b:X:", run_extra, &ctx);
	int rc = 2;
	if (first == -2) {
		rc = 0;
		goto out;
	}
	if (first == -3) {
		rc = 1;
		goto out;
	}
	if (first < 0)
		goto out;
	/* dcc run script.d [args]: the first operand is the script */
	if (!src.text && first < argc) {
		if (load_script(&src, argv[first])) {
			rc = 1;
			goto out;
		}
		first++;
	}
	if (!src.text) {
		fprintf(stderr, "dcc: error: dcc run needs a script (script.d, -s script.d) or "
			"-n 'description'\n");
		loader_usage(stderr, &lo);
		goto out;
	}
	void *obj = NULL;
	size_t size;
	struct xopts x = { (const char **)lo.xopts, lo.nxopts };
	verbose = lo.verbose;
	rc = compile_sources(&src, argc - first, argv + first, false, ctx.zdefs, 0, &x, &obj,
			     &size);
	if (rc || ctx.check_only) {
		free(obj);
		goto out;
	}
	/* the preprocessor's -x settings were the compiler's alone */
	struct xopts rx = { (const char **)lo.xopts, lo.nxopts };
	cpp_xopts(&rx);
	lo.nxopts = rx.n;
	const char *base = strrchr(src.label, '/');

	lo.obj_name = base ? base + 1 : src.label;
	/* what this kernel lacks, named before loading, as dtrun does */
	rc = loader_check_kernel(obj, size, &lo) ? 1 : loader_run(obj, size, &lo);
	free(obj);
out:
	free(src.text);
	free(src.label);
	free((void *)lo.xopts);
	return rc;
}

static int write_out(const char *path, const void *obj, size_t size)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(obj, 1, size, f) != size || fclose(f)) {
		fprintf(stderr, "dcc: error: cannot write %s: %s\n", path, strerror(errno));
		return 1;
	}
	return 0;
}

/* dcc -h [-s] provider.d [-o provider.h]; dcc -h alone is the help */
static int header_main(char **rest, int nrest, const char *out)
{
	size_t len;
	char *text, *dflt = NULL;
	int rc;

	if (!nrest) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (nrest > 1) {
		fprintf(stderr, "dcc: error: dcc -h takes one provider file\n");
		return 2;
	}
	text = read_all(rest[0], &len);
	if (!text) {
		fprintf(stderr, "dcc: error: cannot read %s: %s\n", rest[0], strerror(errno));
		return 1;
	}
	if (!out) { /* provider.d -> provider.h, in the current directory */
		const char *base = strrchr(rest[0], '/') ? strrchr(rest[0], '/') + 1 : rest[0];
		size_t n = strlen(base);
		if (n > 2 && !strcmp(base + n - 2, ".d"))
			n -= 2;
		dflt = malloc(n + 3);
		memcpy(dflt, base, n);
		strcpy(dflt + n, ".h");
	}
	rc = header_write(rest[0], text, len, out ? out : dflt);
	free(dflt);
	free(text);
	return rc;
}

static char *default_out(const char *script)
{
	const char *base = strrchr(script, '/');
	base = base ? base + 1 : script;
	size_t n = strlen(base);
	if (n > 2 && !strcmp(base + n - 2, ".d"))
		n -= 2;
	char *out = malloc(n + 8);
	memcpy(out, base, n);
	strcpy(out + n, ".bpf.o");
	return out;
}

/* What the options before the script asked for. */
struct cli {
	const char *out, *skel;
	const char *script; /* -s */
	bool check_only, zdefs, dump_meta;
	bool header;        /* -h with a script */
	int dumps;
	struct xopts x;
	struct sources src;
};

/* The options before the first operand: the index of that operand, -1 on a usage error,
 * or -2 when the command is done (--help, --version). */
static int cli_options(struct cli *c, int argc, char **argv)
{
	int i;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--"))
			return i + 1;
		if (a[0] != '-' || !a[1])
			break;
		if (!strcmp(a, "-h")) {
			c->header = true;
		} else if (!strcmp(a, "-s")) {
			if (i + 1 >= argc || c->script) {
				fprintf(stderr, "dcc: error: option -s needs one script\n");
				return -1;
			}
			c->script = argv[++i];
		} else if (!strcmp(a, "--help")) {
			fputs(usage_text, stdout);
			return -2;
		} else if (!strcmp(a, "--version")) {
			puts("dcc " DCC_VERSION " (LLVM 19 BPF backend)");
			return -2;
		} else if (!strcmp(a, "--btf")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "dcc: error: option --btf needs a file\n");
				return -1;
			}
			btf_path = argv[++i];
		} else if (!strcmp(a, "--skel")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "dcc: error: option --skel needs a file\n");
				return -1;
			}
			c->skel = argv[++i];
		} else if (!strcmp(a, "-x")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "dcc: error: option -x needs an argument\n");
				return -1;
			}
			c->x.v[c->x.n++] = argv[++i];
		} else if (!strncmp(a, "-x", 2)) {
			c->x.v[c->x.n++] = a + 2;
		} else if (!strcmp(a, "-o") || !strcmp(a, "-n") || !strcmp(a, "-i")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "dcc: error: option %s needs an argument\n", a);
				return -1;
			}
			if (a[1] == 'o')
				c->out = argv[++i];
			else
				add_desc(&c->src, argv[++i]);
		} else if (!strcmp(a, "-P") || !strcmp(a, "-m") || !strcmp(a, "-f")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "dcc: error: option %s needs an argument\n", a);
				return -1;
			}
			if (add_desc_by_part(&c->src, argv[++i], a[1] == 'P' ? 0 : a[1] == 'm' ? 1 : 2))
				return -3; /* reported: no usage text */
		} else if (!strcmp(a, "-C") || !strcmp(a, "-H")) {
			cpp_option(a[1], NULL);
		} else if (a[1] == 'D' || a[1] == 'U' || a[1] == 'I') {
			const char *v = a[2] ? a + 2 : i + 1 < argc ? argv[++i] : NULL;
			if (!v) {
				fprintf(stderr, "dcc: error: option %s needs an argument\n", a);
				return -1;
			}
			cpp_option(a[1], v);
		} else if (!strcmp(a, "-e")) {
			c->check_only = true;
		} else if (!strcmp(a, "-l") || !strcmp(a, "-lv")) {
			list_probes = true;
			verbose |= a[2] == 'v'; /* with -l, -v lists argument types */
		} else if (!strcmp(a, "-p") || !strcmp(a, "-c")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "dcc: error: option %s needs an argument\n", a);
				return -1;
			}
			if (a[1] == 'c') {
				list_cmd = argv[++i];
			} else {
				char *end;
				long v = strtol(argv[++i], &end, 10);
				if (*end || v <= 0 || v > 0x7fffffff) {
					fprintf(stderr, "dcc: error: invalid pid '%s'\n", argv[i]);
					return -1;
				}
				list_pid = (pid_t)v;
			}
		} else if (!strcmp(a, "-v")) {
			verbose = true;
		} else if (!strcmp(a, "-Z")) {
			c->zdefs = true;
		} else if (!strcmp(a, "--dump-tokens")) {
			c->dumps |= 1;
		} else if (!strcmp(a, "--dump-ast")) {
			c->dumps |= 2;
		} else if (!strcmp(a, "--dump-ir")) {
			c->dumps |= 4;
		} else if (!strncmp(a, "--emit", 6) && (a[6] == '=' || !a[6])) {
			const char *v = a[6] ? a + 7 : i + 1 < argc ? argv[++i] : "";
			if (strcmp(v, "obj") && strcmp(v, "ir") && strcmp(v, "asm")) {
				fprintf(stderr, "dcc: error: --emit takes obj, ir or asm, not '%s'\n",
					v);
				return -1;
			}
			emit_kind = !strcmp(v, "ir") ? 1 : !strcmp(v, "asm") ? 2 : 0;
		} else if (!strcmp(a, "--dump-meta")) {
			c->dump_meta = true;
		} else {
			fprintf(stderr, "dcc: error: unknown option '%s'\n", a);
			return -1;
		}
	}
	return i;
}

static int dcc_main(int argc, char **argv)
{
	/* start_memory.c moved the heap into huge pages before LLVM's
	 * constructors ran; this finds that reserve and notes it, so that
	 * `dcc run` gives back what is free once its object is loaded */
	hugeheap_reserve((size_t)24 << 20);
	if (argc > 1 && !strcmp(argv[1], "run"))
		return cmd_run(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "verify"))
		return verify_main(argc - 1, argv + 1);
	struct cli c = { .x = { calloc((size_t)argc, sizeof(char *)), 0 } };
	struct sources *src = &c.src;
	const char *out;
	int rc = 2;
	int i = cli_options(&c, argc, argv);
	if (i == -2 || i == -3) {
		free(c.x.v);
		return i == -2 ? 0 : 1;
	}
	if (i < 0)
		goto usage;
	if ((list_cmd || list_pid) && !list_probes) {
		fprintf(stderr, "dcc: error: -p and -c name a process to trace with dcc run, or to "
			"list with -l\n");
		goto usage;
	}
	out = c.out;
	/* Options may also follow the script: collect the rest. */
	char **rest = calloc((size_t)argc + 1, sizeof(char *));
	int nrest = 0;
	for (; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc && !out && src->ndesc + nrest > 0) {
			out = argv[++i];
			continue;
		}
		if (!strcmp(argv[i], "--skel") && i + 1 < argc && !c.skel && src->ndesc + nrest > 0) {
			c.skel = argv[++i];
			continue;
		}
		rest[nrest++] = argv[i];
	}
	if (c.script) { /* -s FILE: the script operand, before the macro arguments */
		memmove(rest + 1, rest, sizeof(*rest) * (size_t)nrest++);
		rest[0] = (char *)c.script;
	}
	if (c.header) {
		free(c.x.v);
		rc = header_main(rest, nrest, out);
		free(rest);
		return rc;
	}
	if (c.dump_meta && !src->ndesc && nrest == 1) {
		/* an object file: show its metadata; a script: compile it first */
		size_t size;
		char *obj = read_all(rest[0], &size);
		if (obj && size >= 4 && !memcmp(obj, "\177ELF", 4)) {
			rc = meta_dump(stdout, obj, size);
			free(obj);
			free(rest);
			free(c.x.v);
			return rc;
		}
		free(obj);
	}
	int margc = nrest;
	char **margv = rest;
	if (list_probes && !src->ndesc && !nrest) {
		/* dcc -l alone: every provider's probes */
		static const char *const all[] = { "dtrace:::", "profile:::", "syscall:::",
						   "proc:::", "sched:::", "io:::", "sdt:::",
						   "ip:::", "tcp:::", "udp:::", "lockstat:::",
						   "cpc:::", "rawtp:::", "fbt:::" };
		for (size_t k = 0; k < sizeof(all) / sizeof(all[0]); k++)
			add_desc(src, all[k]);
	}
	if (!src->ndesc) {
		if (!nrest) {
			fprintf(stderr, "dcc: error: no script given\n");
			free(rest);
			goto usage;
		}
		if (load_script(src, rest[0])) {
			free(rest);
			free(c.x.v);
			return 1;
		}
		margc--;
		margv++;
		src->bare = true;
	}
	void *obj = NULL;
	size_t size = 0;
	rc = compile_sources(src, margc, margv, c.check_only, c.zdefs, c.dumps, &c.x, &obj, &size);
	if (!rc && obj) {
		if (c.dump_meta) {
			rc = meta_dump(stdout, obj, size);
		} else if (emit_kind && !out) { /* IR or assembly: stdout */
			rc = fwrite(obj, 1, size, stdout) != size || fflush(stdout);
		} else if (emit_kind) {
			rc = write_out(out, obj, size);
		} else {
			char *dflt = out ? NULL : default_out(src->script ? src->script : "dcc");
			rc = write_out(out ? out : dflt, obj, size);
			if (!rc && c.skel)
				rc = skel_write(c.skel, out ? out : dflt);
			free(dflt);
		}
	}
	free(obj);
	free(rest);
	free(src->text);
	free(src->label);
	free(c.x.v);
	return rc;
usage:
	free(c.x.v);
	fputs(usage_text, stderr);
	return 2;
}

int main(int argc, char **argv)
{
	int rc = dcc_main(argc, argv);
#if !DCC_ASAN
	/* The streams flushed, then _exit(): exit() would also run the
	 * destructors of LLVM's ~2,000 static objects (its command-line
	 * options and registries), ~0.4 ms of a one-clause compile, for
	 * memory the kernel takes back anyway. Under AddressSanitizer exit()
	 * stays: LeakSanitizer checks the heap there. */
	fflush(NULL);
	_exit(rc);
#else
	return rc;
#endif
}
