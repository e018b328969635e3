/* Parser entry: D source text -> N_PROGRAM tree (NULL only on allocation failure). */
#ifndef DCC_PARSE_H
#define DCC_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include "ast.h"

struct arena;
struct diag;

struct parse_opts {
	/* Extra type names known before parsing (typedefs from BTF or the D
	 * library), consulted to tell casts from parenthesized expressions. */
	bool (*is_typedef)(void *ctx, const char *name);
	/* The kernel's typedef names (uint, bool...), which D knows too; asked
	 * only where a type name is likely, as reading them costs. */
	bool (*is_kernel_typedef)(void *ctx, const char *name);
	void *ctx;
	/* -n descriptions: a probe list without a body is a clause with the
	 * default action (N_CLAUSE ival = 1). In a script it is an error. */
	bool descriptions;
};

/* Reports every error it can (recovering at ';', '}' and clause starts) through
 * dg and still returns the tree of what parsed; callers check diag_errors(). */
struct node *parse_program(struct arena *ar, struct diag *dg, uint32_t file,
			   const char *text, size_t len, const struct parse_opts *opts);

/* --dump-tokens: one token a line, "LINE:COL KIND 'text'". Returns 0 or -1 on lex errors. */
int parse_dump_tokens(FILE *out, struct diag *dg, uint32_t file, const char *text, size_t len);

#endif
