/* The compiler's steps in order: lex/parse, sema, codegen, emit. */
#include "compile.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "arena.h"
#include "btf.h"
#include "cg.h"
#include "cg_emit.h"
#include "diag.h"
#include "parse.h"
#include "sema.h"
#include "stage.h"
#include "types.h"
#include "dlib_gen.h"

/* The D library (headers/d), parsed before every script. */
struct lib {
	struct node *head, *tail;
	/* the kernel's BTF, opened by the parser's first question about a
	 * kernel typedef and handed on to sema */
	struct arena *ar;
	const char *btf_path;
	struct sema_btf *btf;
	bool btf_tried;
	/* from a dlib: the library's typedef names, sorted (the parser asks
	 * about every identifier that may start a cast) */
	const char *const *typedefs;
	size_t ntypedefs;
};

static bool lib_typedef(void *ctx, const char *name);

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}
static bool kernel_typedef(void *ctx, const char *name);

enum { NLIB = sizeof(dlib_files) / sizeof(dlib_files[0]) };

static int parse_library(struct arena *ar, struct diag *dg, struct lib *lib)
{
	for (unsigned i = 0; i < NLIB; i++) {
		const char *text = dlib_files[i].text;
		size_t len = strlen(text);
		uint32_t file = diag_add_source(dg, dlib_files[i].name, text, len);
		struct parse_opts po = { .is_typedef = lib_typedef, .ctx = lib };
		struct node *p = parse_program(ar, dg, file, text, len, &po);
		if (!p || diag_errors(dg))
			return -1;
		for (struct node *n = p->list, *next; n; n = next) {
			next = n->next;
			n->next = NULL;
			if (lib->tail)
				lib->tail->next = n;
			else
				lib->head = n;
			lib->tail = n;
		}
	}
	return 0;
}

/* the parsers must know the typedef names D predefines and the library's
 * (to tell casts from parenthesized expressions) */
static bool lib_typedef(void *ctx, const char *name)
{
	struct lib *lib = ctx;
	if (type_by_name(name))
		return true;
	if (lib->typedefs)
		return bsearch(&name, lib->typedefs, lib->ntypedefs, sizeof(*lib->typedefs),
			       cmp_name) != NULL;
	for (struct node *n = lib->head; n; n = n->next)
		if (n->kind == N_DECL && n->ival == ST_TYPEDEF)
			for (struct node *d = n->list; d; d = d->next)
				if (d->name && !strcmp(d->name, name))
					return true;
	return false;
}

/* The library parsed once (compile_dlib_parse): its tree, never given to
 * sema, which annotates and rewrites nodes, so each compile gets a copy.
 * The nodes lie in one array, so a copy is one memcpy and a pass that
 * moves the pointers between them (a node by node copy cost as much as
 * the parse it saves), into an array of the dlib's own: a fresh one per
 * compile cost as much again in page faults (megabytes, mapped anew). */
struct dlib {
	struct arena *ar;
	/* nodes[0] heads the top-level chain; read-only pages once made, so a
	 * compile that wrote to the cache instead of its copy would fault */
	struct node *nodes;
	size_t map_len;
	struct node *work;  /* the copy the current compile checks */
	size_t n;
	const char **typedefs; /* sorted, for lib_typedef */
	size_t ntypedefs;
};

static void list_typedefs(struct dlib *d, const struct node *head)
{
	for (int pass = 0; pass < 2; pass++) {
		d->ntypedefs = 0;
		for (const struct node *n = head; n; n = n->next)
			if (n->kind == N_DECL && n->ival == ST_TYPEDEF)
				for (const struct node *x = n->list; x; x = x->next) {
					if (x->name && pass)
						d->typedefs[d->ntypedefs] = x->name;
					d->ntypedefs += x->name != NULL;
				}
		if (!pass)
			d->typedefs = arena_alloc(d->ar, (d->ntypedefs + 1) * sizeof(*d->typedefs));
	}
	qsort(d->typedefs, d->ntypedefs, sizeof(*d->typedefs), cmp_name);
}

static size_t count_chain(const struct node *n)
{
	size_t k = 0;
	for (; n; n = n->next)
		k += 1 + count_chain(n->a) + count_chain(n->b) + count_chain(n->c) +
		     count_chain(n->d) + count_chain(n->list);
	return k;
}

/* The chain from n and everything under it into d->nodes from *at on.
 * The parser shares no node between two parents, so the copy is a tree as
 * the parse was (count_chain counted each node once). */
static struct node *flatten(struct dlib *d, size_t *at, const struct node *n)
{
	struct node *head = NULL, **tail = &head;
	for (; n; n = n->next) {
		struct node *c = &d->nodes[(*at)++];
		*c = *n;
		c->next = NULL;
		*tail = c;
		tail = &c->next;
		c->a = flatten(d, at, n->a);
		c->b = flatten(d, at, n->b);
		c->c = flatten(d, at, n->c);
		c->d = flatten(d, at, n->d);
		c->list = flatten(d, at, n->list);
	}
	return head;
}

struct dlib *compile_dlib_parse(void)
{
	struct diag *dg = diag_new(stderr);
	struct dlib *d = calloc(1, sizeof(*d));
	if (!d)
		abort();
	d->ar = arena_create();
	struct lib lib = { .ar = d->ar };
	/* file 0 is the script in a compile: the library's files, and so the
	 * locations in its nodes, are 1..NLIB there as here */
	diag_add_source(dg, "<script>", "", 0);
	if (parse_library(d->ar, dg, &lib))
		diag_bug_fatal(dg, "the D library does not parse");
	d->n = count_chain(lib.head);
	long page = sysconf(_SC_PAGESIZE);
	d->map_len = (d->n * sizeof(*d->nodes) + (size_t)page) & ~(size_t)(page - 1);
	d->nodes = mmap(NULL, d->map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			-1, 0);
	if (d->nodes == MAP_FAILED)
		abort();
	d->work = arena_alloc(d->ar, d->n * sizeof(*d->work));
	size_t at = 0;
	flatten(d, &at, lib.head);
	mprotect(d->nodes, d->map_len, PROT_READ);
	list_typedefs(d, d->nodes);
	diag_free(dg);
	return d;
}

void compile_dlib_free(struct dlib *d)
{
	if (!d)
		return;
	munmap(d->nodes, d->map_len);
	arena_destroy(d->ar);
	free(d);
}

/* What parse_library does, from the cached tree: the same sources in the
 * same order (the nodes' file numbers), a fresh copy of the nodes. */
static void copy_library(struct diag *dg, struct dlib *d, struct lib *lib)
{
	for (unsigned i = 0; i < NLIB; i++)
		diag_add_source(dg, dlib_files[i].name, dlib_files[i].text,
				strlen(dlib_files[i].text));
	if (!d->n)
		return;
	struct node *to = d->work;
	memcpy(to, d->nodes, d->n * sizeof(*to));
	for (size_t i = 0; i < d->n; i++) {
		struct node *c = &to[i];
		struct node **ptrs[] = { &c->a, &c->b, &c->c, &c->d, &c->list, &c->next };
		for (unsigned k = 0; k < sizeof(ptrs) / sizeof(ptrs[0]); k++)
			if (*ptrs[k])
				*ptrs[k] = to + (*ptrs[k] - d->nodes);
	}
	lib->head = to;
	for (struct node *n = lib->head; n; n = n->next)
		lib->tail = n;
	lib->typedefs = d->typedefs;
	lib->ntypedefs = d->ntypedefs;
}

static bool kernel_typedef(void *ctx, const char *name)
{
	struct lib *lib = ctx;
	if (!lib->btf_tried) {
		char why[256];
		lib->btf_tried = true;
		/* a failure is sema's to report, where a kernel type is needed */
		lib->btf = sema_btf_open(lib->ar, lib->btf_path, why, sizeof(why));
	}
	return lib->btf && sema_btf_typedef(lib->btf, name);
}

int compile_source(const struct compile_opts *o, void **obj, size_t *size)
{
	*obj = NULL;
	*size = 0;
	struct diag *dg = diag_new(o->errs ? o->errs : stderr);
	uint32_t file = diag_add_source(dg, o->name, o->text, o->len);
	int rc = 1;
	if (o->dump_tokens) {
		rc = parse_dump_tokens(stdout, dg, file, o->text, o->len) ? 1 : 0;
		diag_free(dg);
		return rc;
	}
	struct arena *ar = arena_create();
	struct lib lib = { .ar = ar, .btf_path = o->btf_path };
	if (o->btf) {
		sema_btf_rebind(o->btf, ar);
		lib.btf = o->btf;
		lib.btf_tried = true;
	}
	bool nolibs = o->nolibs;
	for (int i = 0; i < o->nxopts; i++)
		nolibs |= !strcmp(o->xopts[i], "nolibs");
	stage_enter(STAGE_DLIB);
	if (!nolibs && o->dlib)
		copy_library(dg, o->dlib, &lib);
	else if (!nolibs && parse_library(ar, dg, &lib))
		diag_bug_fatal(dg, "the D library does not parse");
	stage_enter(STAGE_PARSE);
	struct parse_opts po = { .descriptions = o->description, .is_typedef = lib_typedef,
				 .is_kernel_typedef = kernel_typedef, .ctx = &lib };
	struct node *prog = parse_program(ar, dg, file, o->text, o->len, &po);
	if (!prog || diag_errors(dg))
		goto out;
	/* the library's declarations come first, as if included */
	if (lib.tail) {
		lib.tail->next = prog->list;
		prog->list = lib.head;
	}
	if (o->dump_ast) {
		ast_dump(stdout, prog);
		rc = 0;
		goto out;
	}
	struct sema s = { 0 };
	struct sema_opts so = { .macro_argv = o->macro_argv, .macro_argc = o->macro_argc,
				.zdefs = o->zdefs, .btf_path = o->btf_path,
				.list_types = o->list && o->verbose,
				.xopts = o->xopts, .nxopts = o->nxopts, .btf = lib.btf,
				.list_usdt = o->list_usdt, .list_ctx = o->list_ctx };
	lib.btf = NULL; /* sema's now */
	if (o->list) {
		rc = sema_list(&s, ar, dg, prog, &so, stdout) ? 1 : 0;
		goto out_sema;
	}
	struct node *script = lib.tail ? lib.tail->next : prog->list;
	stage_enter(STAGE_SEMA);
	int bad = sema_check(&s, ar, dg, prog, &so);
	/* -x tree: DTrace's debugging dump of its parse tree; dcc's own tree,
	 * as sema left it (typed, macros bound), goes to stderr */
	if (sema_option(&s, "tree"))
		for (struct node *n = script; n; n = n->next)
			ast_dump(stderr, n);
	if (bad)
		goto out_sema;
	if (o->check_only) {
		rc = 0;
		goto out_sema;
	}
	struct cg cg = { 0 };
	if (s.btf)
		sema_btf_identity(s.btf, &cg.btf_size, &cg.btf_hash);
	cg.src_text = o->source ? o->source : o->text;
	cg.src_len = o->source ? o->source_len : o->len;
	cg.emit = o->emit;
	stage_enter(STAGE_TARGET);
	cg.tm = cg_emit_target_machine();
	if (!cg.tm)
		goto out_sema;
	stage_enter(STAGE_IR);
	const char *oname = o->obj_name ? o->obj_name : o->name;
	const char *label = o->obj_name ? o->obj_name : o->label ? o->label : o->name;
	if (!cg_program(&cg, &s, dg, ar, oname, label, o->description)) {
		rc = cg_emit_object(&cg, o->dump_ir, obj, size) ? 1 : 0;
	}
	stage_enter(STAGE_FREE);
	if (o->dump_ir && *obj) {
		free(*obj);
		*obj = NULL;
	}
	cg_dispose(&cg);
out_sema:
	stage_enter(STAGE_FREE);
	if (s.btf != o->btf)
		sema_btf_close(s.btf);
	free(s.named);
	free(s.named_index);
	free(s.trans);
	free(s.probes);
	free(s.vars);
	free(s.aggs);
	free(s.opt_names);
	free(s.opt_values);
out:
	if (lib.btf != o->btf)
		sema_btf_close(lib.btf);
	arena_destroy(ar);
	types_forget_pointers();
	diag_free(dg);
	if (o->verbose && !o->list) /* -lv: -v lists argument types */
		stage_report(stderr);
	return rc;
}
