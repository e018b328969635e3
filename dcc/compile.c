/* The compiler's steps in order: lex/parse, sema, codegen, emit. */
#include "compile.h"

#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "btf.h"
#include "cg.h"
#include "diag.h"
#include "parse.h"
#include "sema.h"

int compile_source(const struct compile_opts *o, void **obj, size_t *size)
{
	*obj = NULL;
	*size = 0;
	struct diag *dg = diag_new(stderr);
	uint32_t file = diag_add_source(dg, o->name, o->text, o->len);
	int rc = 1;
	if (o->dump_tokens) {
		rc = lex_dump(stdout, dg, file, o->text, o->len) ? 1 : 0;
		diag_free(dg);
		return rc;
	}
	struct arena *ar = arena_create();
	struct parse_opts po = { .descriptions = o->description };
	struct node *prog = parse_program(ar, dg, file, o->text, o->len, &po);
	if (!prog || diag_errors(dg))
		goto out;
	if (o->dump_ast) {
		ast_dump(stdout, prog);
		rc = 0;
		goto out;
	}
	struct sema s;
	struct sema_opts so = { .macro_argv = o->macro_argv, .macro_argc = o->macro_argc,
				.zdefs = o->zdefs, .btf_path = o->btf_path };
	if (sema_check(&s, ar, dg, prog, &so))
		goto out_sema;
	if (o->check_only) {
		rc = 0;
		goto out_sema;
	}
	struct cg cg = { 0 };
	cg.tm = emit_target_machine();
	if (!cg.tm)
		goto out_sema;
	if (!cg_program(&cg, &s, dg, ar, o->name, o->label ? o->label : o->name,
			o->description) &&
	    !emit_object(&cg, o->dump_ir, obj, size))
		rc = 0;
	if (o->dump_ir && *obj) {
		free(*obj);
		*obj = NULL;
	}
	cg_dispose(&cg);
out_sema:
	dbtf_close(s.btf);
	free(s.probes);
	free(s.vars);
	free(s.aggs);
	free(s.opt_names);
	free(s.opt_values);
out:
	arena_destroy(ar);
	diag_free(dg);
	return rc;
}
