/* The compiler's steps in order: lex/parse, sema, codegen, emit. */
#include "compile.h"

#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "btf.h"
#include "cg.h"
#include "cg_emit.h"
#include "diag.h"
#include "dlib.h"
#include "parse.h"
#include "sema.h"
#include "stage.h"
#include "types.h"

/* the parser's is_kernel_typedef: the kernel's BTF, opened on the first question */
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
	if (nolibs)
		;
	else if (o->dlib)
		dlib_copy(dg, o->dlib, &lib);
	else if (!o->parse_dlib)
		dlib_prebuilt(dg, &lib);
	else if (dlib_parse(ar, dg, &lib))
		diag_bug_fatal(dg, "the D library does not parse");
	stage_enter(STAGE_PARSE);
	struct parse_opts po = { .descriptions = o->description, .is_typedef = lib_typedef,
				 .is_kernel_typedef = kernel_typedef, .ctx = &lib };
	struct node *prog = parse_program(ar, dg, file, o->text, o->len, &po);
	if (!prog || diag_errors(dg))
		goto out;
	dlib_attach(&lib);
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
	dlib_release(&lib);
	types_forget_pointers();
	diag_free(dg);
	if (o->verbose && !o->list) /* -lv: -v lists argument types */
		stage_report(stderr);
	return rc;
}
