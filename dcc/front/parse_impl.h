/*
 * Shared by parse.c (program, clauses, statements, pragmas), parse_expr.c
 * (expressions) and parse_decl.c (types and declarations). Not public.
 */
#ifndef DCC_PARSE_IMPL_H
#define DCC_PARSE_IMPL_H

#include "arena.h"
#include "ast.h"
#include "lex.h"
#include "parse.h"

struct tdname {
	struct tdname *next;
	const char *name;
};

struct parser {
	struct arena *ar;
	struct diag *dg;
	struct lexer lx;
	const struct parse_opts *opts;
	struct token toks[8]; /* toks[0] is the current token when ntok > 0; lookahead
			      * goes at most 6 tokens past it (parse_starts_type at 2,
			      * then a module`type) */
	int ntok;
	struct token prev;    /* the last token consumed */
	struct node *pragmas; /* seen while parsing, not yet in the program */
	struct node **pragma_tail;
	struct tdname *typedefs;
	int in_pred;          /* inside "/ expr /": a '/' before '{' ends it */
	bool quiet;           /* parse_dump_tokens: parse errors are not reported */
	bool failed;          /* the current expression/declaration hit an error */
	int depth;            /* nesting of expressions and types, bounded */
};

/* Deeper nesting than this is refused rather than overflowing the stack. */
#define PARSE_MAX_DEPTH 256
/* The tree's height, checked once parsed: chains built by a loop (1 + 1 + ...,
 * a->b->c, a, b, c) nest without recursing here, but sema and codegen recurse
 * on every level. */
#define PARSE_MAX_HEIGHT 1000

/* parse.c */
struct token *parse_peek(struct parser *ps);
struct token *parse_peek_at(struct parser *ps, int k);
struct token parse_next(struct parser *ps);
bool parse_is_op(const struct token *t, int op);
bool parse_is_kw(const struct token *t, int kw);
bool parse_accept(struct parser *ps, int op);
/* Consume `op` or report "expected 'op'" (with a note at `open` if given). */
bool parse_expect(struct parser *ps, int op, const struct loc *open);
int parse_error(struct parser *ps, struct loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void parse_note(struct parser *ps, struct loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
const char *parse_tok_str(struct parser *ps, const struct token *t);
struct loc parse_span(const struct parser *ps, struct loc start);
/* Enter one level of nesting; false (with an error) when too deep. */
bool parse_nest(struct parser *ps);
bool parse_is_typedef_name(struct parser *ps, const char *name);
void parse_add_typedef(struct parser *ps, const char *name);
/* t names a typedef, the kernel's included: for places where one is likely
 * ("(name)", "(name *", "name name") */
bool parse_is_kernel_typedef(struct parser *ps, const struct token *t);
/* Recovery: to the end of a statement (';' consumed, '}' left), or at top
 * level past ';' or a balanced { } (stopping before '{' if to_body). */
void parse_skip_stmt(struct parser *ps);
bool parse_skip_top(struct parser *ps, bool to_body);

/* parse_expr.c */
struct node *parse_expr(struct parser *ps);          /* comma expression */
struct node *parse_assign_expr(struct parser *ps);
struct node *parse_cond_expr(struct parser *ps);
bool parse_starts_type(struct parser *ps, int k);    /* does token k begin a type name? */

/* parse_decl.c */
bool parse_starts_decl(struct parser *ps, const struct token *t, const struct token *t2);
struct node *parse_declaration(struct parser *ps);
/* type-name: specifiers and an abstract declarator; force: any identifier is a
 * type name here (translator, xlate, offsetof, inline). */
struct node *parse_type_name(struct parser *ps, bool force);

#endif
