/*
 * The D parser, top half: token buffering, error reporting and recovery, the
 * program (clauses, declarations, pragmas), probe descriptions, predicates
 * and clause bodies. Expressions are in parse_expr.c, types and declarations
 * in parse_decl.c.
 */
#include "parse_impl.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char *const builtin_typedefs[] = {
	"int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t",
	"uint64_t", "size_t", "ssize_t", "uintptr_t", "intptr_t",
};

static void pragma(struct parser *ps, const struct token *t);

int parse_error(struct parser *ps, struct loc loc, const char *fmt, ...)
{
	ps->failed = true;
	if (ps->quiet)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	int r = lex_verror(&ps->lx, loc, fmt, ap);
	va_end(ap);
	return r;
}

void parse_note(struct parser *ps, struct loc loc, const char *fmt, ...)
{
	if (ps->quiet || ps->lx.stop)
		return;
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	diag_note(ps->dg, loc, "%s", buf);
}

static void fill(struct parser *ps)
{
	for (;;) {
		struct token t = lex_next(&ps->lx, LEX_NORMAL);
		if (t.kind == TOK_PRAGMA) {
			pragma(ps, &t);
			continue;
		}
		ps->toks[ps->ntok++] = t;
		return;
	}
}

struct token *parse_peek_at(struct parser *ps, int k)
{
	/* the grammar never looks further: a bug, never a buffer overrun */
	if (k >= (int)(sizeof(ps->toks) / sizeof(ps->toks[0])))
		diag_bug(ps->dg, ps->toks[0].loc, "the parser looked %d tokens ahead", k);
	while (ps->ntok <= k)
		fill(ps);
	return &ps->toks[k];
}

struct token *parse_peek(struct parser *ps)
{
	return parse_peek_at(ps, 0);
}

struct token parse_next(struct parser *ps)
{
	parse_peek(ps);
	struct token t = ps->toks[0];
	for (int i = 1; i < ps->ntok; i++)
		ps->toks[i - 1] = ps->toks[i];
	ps->ntok--;
	if (t.kind != TOK_EOF)
		ps->prev = t;
	return t;
}

/* Forget the buffered tokens and rewind, so the text can be lexed again in
 * probe-description mode. */
static void drop_lookahead(struct parser *ps)
{
	if (ps->ntok > 0) {
		ps->lx.st = ps->toks[0].st;
		ps->ntok = 0;
	}
}

bool parse_is_op(const struct token *t, int op)
{
	return t->kind == TOK_PUNCT && t->op == op;
}

bool parse_is_kw(const struct token *t, int kw)
{
	return (t->kind == TOK_KEYWORD || t->kind == TOK_RESERVED) && t->op == kw;
}

bool parse_accept(struct parser *ps, int op)
{
	if (!parse_is_op(parse_peek(ps), op))
		return false;
	parse_next(ps);
	return true;
}

static const char *op_text(int op)
{
	switch (op) {
	case P_INC: return "++";
	case P_DEC: return "--";
	case P_ELLIPSIS: return "...";
	case '(': return "(";
	case ')': return ")";
	case '[': return "[";
	case ']': return "]";
	case '{': return "{";
	case '}': return "}";
	case ';': return ";";
	case '`': return "`";
	default: return ast_op_name(op);
	}
}

bool parse_expect(struct parser *ps, int op, const struct loc *open)
{
	if (parse_accept(ps, op))
		return true;
	struct token *t = parse_peek(ps);
	parse_error(ps, t->loc, "expected '%s'", op_text(op));
	if (open)
		parse_note(ps, *open, "to match this '%s'", op_text(op == ')' ? '(' :
								 op == ']' ? '[' :
								 op == '>' ? '<' : '{'));
	return false;
}

const char *parse_tok_str(struct parser *ps, const struct token *t)
{
	if (t->kind == TOK_EOF)
		return "end of file";
	return arena_printf(ps->ar, "'%.*s'", (int)t->len, t->text);
}

/* From `start` to the end of the last consumed token. */
struct loc parse_span(const struct parser *ps, struct loc start)
{
	struct loc l = start;
	uint32_t end = ps->prev.loc.off + (uint32_t)ps->prev.len;
	if (ps->prev.loc.file == start.file && end > start.off)
		l.len = end - start.off;
	return l;
}

bool parse_nest(struct parser *ps)
{
	if (ps->depth < PARSE_MAX_DEPTH) {
		ps->depth++;
		return true;
	}
	parse_error(ps, parse_peek(ps)->loc, "expression or type is nested too deeply");
	return false;
}

bool parse_is_typedef_name(struct parser *ps, const char *name)
{
	for (size_t i = 0; i < sizeof(builtin_typedefs) / sizeof(builtin_typedefs[0]); i++)
		if (!strcmp(builtin_typedefs[i], name))
			return true;
	for (struct tdname *d = ps->typedefs; d; d = d->next)
		if (!strcmp(d->name, name))
			return true;
	return ps->opts->is_typedef && ps->opts->is_typedef(ps->opts->ctx, name);
}

bool parse_is_kernel_typedef(struct parser *ps, const struct token *t)
{
	if (t->kind != TOK_IDENT || !ps->opts->is_kernel_typedef)
		return false;
	const char *name = arena_strndup(ps->ar, t->text, t->len);
	return parse_is_typedef_name(ps, name) || ps->opts->is_kernel_typedef(ps->opts->ctx, name);
}

void parse_add_typedef(struct parser *ps, const char *name)
{
	struct tdname *d = arena_new(ps->ar, struct tdname);
	d->name = name;
	d->next = ps->typedefs;
	ps->typedefs = d;
}

/*
 * pragma: "#pragma D" ( "option" name ["=" value] | "depends_on" ... |
 *         "binding" ... | "version" ... | "attributes" ... | "error" ... )
 */
static void pragma(struct parser *ps, const struct token *t)
{
	const char *s = t->str;
	size_t n = 0;
	while (s[n] && !isspace((unsigned char)s[n]))
		n++;
	const char *rest = s + n;
	while (isspace((unsigned char)*rest))
		rest++;
	/* Where the word after "#pragma D" starts in the source. */
	const char *wp = t->text + 1, *te = t->text + t->len;
	while (wp < te && isblank((unsigned char)*wp))
		wp++;
	wp += 6; /* "pragma" */
	while (wp < te && isblank((unsigned char)*wp))
		wp++;
	wp++; /* "D" */
	while (wp < te && isblank((unsigned char)*wp))
		wp++;
	struct loc wloc = lex_subloc(t, wp, n ? n : 1);

	struct node *p = ast_new(ps->ar, N_PRAGMA, t->loc);
	p->name = arena_strndup(ps->ar, s, n);
	p->str = arena_strdup(ps->ar, rest);
	static const char *const known[] = {
		"option", "depends_on", "binding", "version", "attributes", "error",
	};
	bool ok = false;
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strlen(known[i]) == n && !memcmp(known[i], s, n))
			ok = true;
	if (!n) {
		parse_error(ps, t->loc, "expected a pragma name after '#pragma D'");
		return;
	}
	if (!ok) {
		parse_error(ps, wloc, "unknown pragma '#pragma D %s'", p->name);
		return;
	}
	if (!strcmp(p->name, "option")) {
		if (!*rest) {
			parse_error(ps, t->loc, "expected an option name after '#pragma D option'");
			return;
		}
		struct node *o = ast_new(ps->ar, N_OPTION, t->loc);
		const char *eq = strchr(rest, '=');
		if (eq) {
			o->name = arena_strndup(ps->ar, rest, (size_t)(eq - rest));
			o->str = arena_strdup(ps->ar, eq + 1);
		} else {
			o->name = arena_strdup(ps->ar, rest);
		}
		/* "name = value" with blanks is accepted too. */
		char *nm = (char *)o->name;
		size_t k = strlen(nm);
		while (k > 0 && isspace((unsigned char)nm[k - 1]))
			nm[--k] = 0;
		if (o->str)
			while (isspace((unsigned char)*o->str))
				o->str++;
		for (size_t i = 0; nm[i]; i++) {
			if (isspace((unsigned char)nm[i])) {
				parse_error(ps, t->loc, "malformed '#pragma D option %s'", rest);
				return;
			}
		}
		p->a = o;
	} else if (!strcmp(p->name, "error")) {
		/* "#pragma D error "msg"": the program is refused with msg. */
		const char *m = rest;
		size_t ml = strlen(m);
		if (ml >= 2 && m[0] == '"' && m[ml - 1] == '"') {
			m++;
			ml -= 2;
		}
		parse_error(ps, t->loc, "%.*s", (int)ml, m);
	}
	*ps->pragma_tail = p;
	ps->pragma_tail = &p->next;
}

/* Splits "prov:mod:func:name" into its fields, filling from the right. */
static struct node *probe_desc(struct parser *ps, const struct token *t)
{
	struct node *n = ast_new(ps->ar, N_PROBEDESC, t->loc);
	n->str = arena_strndup(ps->ar, t->text, t->len);
	const char *f[8];
	size_t fl[8];
	int nf = 0, brackets = 0;
	const char *s = t->text, *start = s;
	for (size_t i = 0; i <= t->len; i++) {
		char c = i < t->len ? s[i] : ':';
		if (c == '[')
			brackets++;
		else if (c == ']' && brackets > 0)
			brackets--;
		if (c == ':' && (brackets == 0 || i == t->len)) {
			if (nf == 4) {
				parse_error(ps, t->loc,
					    "probe description '%s' has too many fields", n->str);
				break;
			}
			f[nf] = start;
			fl[nf++] = (size_t)(s + i - start);
			start = s + i + 1;
		}
	}
	const char **dst[4] = { &n->prov, &n->mod, &n->func, &n->pname };
	for (int i = 0; i < 4; i++)
		*dst[i] = "";
	for (int i = 0; i < nf && i < 4; i++)
		*dst[4 - nf + i] = arena_strndup(ps->ar, f[i], fl[i]);
	bool digits = t->len > 0 && t->len < 10;
	for (size_t i = 0; i < t->len; i++)
		if (!isdigit((unsigned char)s[i]))
			digits = false;
	if (digits)
		n->ival = strtoull(n->str, NULL, 10);
	return n;
}

/* Skips to the end of the current statement: a ';' (consumed) or the '}'
 * ending the clause (left); a nested { ... } is skipped whole. */
void parse_skip_stmt(struct parser *ps)
{
	int depth = 0;
	for (;;) {
		struct token *t = parse_peek(ps);
		if (t->kind == TOK_EOF)
			return;
		if (parse_is_op(t, ';') && depth == 0) {
			parse_next(ps);
			return;
		}
		if (parse_is_op(t, '}')) {
			if (depth == 0)
				return;
			parse_next(ps);
			if (--depth == 0)
				return;
			continue;
		}
		if (parse_is_op(t, '{'))
			depth++;
		parse_next(ps);
	}
}

/* After a refused keyword: its "( ... )" if any, then the statement or block. */
static void skip_construct(struct parser *ps)
{
	if (parse_is_op(parse_peek(ps), '(')) {
		int depth = 0;
		do {
			struct token *t = parse_peek(ps);
			if (t->kind == TOK_EOF || parse_is_op(t, '{') || parse_is_op(t, '}'))
				break;
			if (parse_is_op(t, '('))
				depth++;
			else if (parse_is_op(t, ')'))
				depth--;
			parse_next(ps);
		} while (depth > 0);
	}
	parse_skip_stmt(ps);
}

/* Outside clause bodies: skip (quietly: it may be probe descriptions) to a
 * ';' or past a balanced { ... }, or stop before '{' when `to_body`. */
bool parse_skip_top(struct parser *ps, bool to_body)
{
	bool quiet = ps->lx.quiet;
	int depth = 0;
	bool body = false;
	ps->lx.quiet = true;
	for (;;) {
		struct token *t = parse_peek(ps);
		if (t->kind == TOK_EOF)
			break;
		if (parse_is_op(t, '{') && depth == 0 && to_body) {
			body = true;
			break;
		}
		parse_next(ps);
		if (parse_is_op(t, ';') && depth == 0)
			break;
		if (parse_is_op(&ps->prev, '{'))
			depth++;
		if (parse_is_op(&ps->prev, '}') && (depth == 0 || --depth == 0))
			break;
	}
	ps->lx.quiet = quiet;
	return body;
}

static const char *stmt_word_message(int kw)
{
	switch (kw) {
	case K_IF: return "'if' statements are not supported in D";
	case K_ELSE: return "'else' is not supported in D";
	case K_SWITCH: return "'switch' statements are not supported in D";
	case K_FOR: return "'for' loops are not supported in D";
	case K_WHILE: return "'while' loops are not supported in D";
	case K_DO: return "'do' loops are not supported in D";
	case K_RETURN: return "'return' statements are not supported in D";
	case K_BREAK: return "'break' statements are not supported in D";
	case K_CONTINUE: return "'continue' statements are not supported in D";
	case K_GOTO: return "'goto' statements are not supported in D";
	default: return NULL;
	}
}

/* statement: expr | ';' (empty); blocks, control flow and declarations are refused */
static struct node *statement(struct parser *ps)
{
	struct token *t = parse_peek(ps);
	if (t->kind == TOK_RESERVED) {
		const char *m = stmt_word_message(t->op);
		bool was_if = parse_is_kw(t, K_IF), was_do = parse_is_kw(t, K_DO);
		if (m)
			parse_error(ps, t->loc, "%s", m);
		else
			parse_error(ps, t->loc, "reserved word '%s' cannot be used",
				    lex_keyword_name(t->op));
		parse_next(ps);
		skip_construct(ps);
		/* The else branch of a refused if goes with it. */
		if (was_if && parse_is_kw(parse_peek(ps), K_ELSE)) {
			parse_next(ps);
			skip_construct(ps);
		}
		/* So does the while of a refused do. */
		if (was_do && parse_is_kw(parse_peek(ps), K_WHILE)) {
			parse_next(ps);
			skip_construct(ps);
		}
		ps->failed = false;
		return NULL;
	}
	if (parse_is_op(t, '{')) {
		parse_error(ps, t->loc, "nested '{' blocks are not supported in D");
		parse_skip_stmt(ps);
		ps->failed = false;
		return NULL;
	}
	if (parse_starts_decl(ps, t, parse_peek_at(ps, 1))) {
		struct loc l = t->loc;
		parse_error(ps, l, "declarations must appear outside of probe clauses");
		parse_skip_stmt(ps);
		ps->failed = false;
		return NULL;
	}
	return parse_expr(ps);
}

/* body: "{" [ stmt { ";" stmt } ] [ ";" ] "}" */
static void body(struct parser *ps, struct node *cl)
{
	struct token open = parse_next(ps);
	struct node **tail = &cl->b;
	for (;;) {
		struct token *t = parse_peek(ps);
		if (parse_is_op(t, '}')) {
			parse_next(ps);
			return;
		}
		if (t->kind == TOK_EOF) {
			parse_error(ps, t->loc, "expected '}' at end of clause");
			parse_note(ps, open.loc, "to match this '{'");
			return;
		}
		if (parse_is_op(t, ';')) {
			parse_next(ps);
			continue;
		}
		ps->failed = false;
		struct node *s = statement(ps);
		if (!s) {
			/* Refused constructs have been skipped; a failed expression
			 * is skipped here. */
			if (ps->failed)
				parse_skip_stmt(ps);
			continue;
		}
		*tail = s;
		tail = &s->next;
		t = parse_peek(ps);
		if (parse_is_op(t, ';')) {
			parse_next(ps);
		} else if (parse_is_op(t, ')') || parse_is_op(t, ']')) {
			parse_error(ps, t->loc, "extraneous '%c'", t->op);
			parse_skip_stmt(ps);
		} else if (!parse_is_op(t, '}') && t->kind != TOK_EOF) {
			parse_error(ps, lex_after(&ps->prev), "expected ';' after expression");
			parse_skip_stmt(ps);
		}
	}
}

static bool same_line(const struct token *a, const struct token *b)
{
	return a->loc.file == b->loc.file && a->loc.line == b->loc.line;
}

/* clause: probe-list [ "/" expr "/" ] "{" stmts "}"; probe-list: desc { "," desc } */
static struct node *clause(struct parser *ps)
{
	struct node *cl = NULL, **tail = NULL;
	struct token last = { 0 };
	for (;;) {
		drop_lookahead(ps);
		struct token d = lex_next(&ps->lx, LEX_PROBE);
		if (d.kind == TOK_PRAGMA) {
			pragma(ps, &d);
			continue;
		}
		if (d.len == 0) {
			struct loc l = d.loc;
			if (d.kind != TOK_EOF)
				l.len = 1;
			parse_error(ps, l, "expected probe description");
			if (parse_skip_top(ps, true) && !ps->lx.stop) {
				struct node dummy = { .kind = N_CLAUSE };
				body(ps, &dummy);
			}
			return NULL;
		}
		ps->prev = d;
		last = d;
		struct node *pd = probe_desc(ps, &d);
		if (!cl) {
			cl = ast_new(ps->ar, N_CLAUSE, d.loc);
			tail = &cl->list;
		}
		*tail = pd;
		tail = &pd->next;
		if (lex_next_char(&ps->lx, ps->lx.st.pos) != ',')
			break;
		parse_next(ps); /* ',' */
	}

	int c = lex_next_char(&ps->lx, ps->lx.st.pos);
	if (c == '/') {
		struct token slash = parse_next(ps);
		ps->in_pred++;
		ps->failed = false;
		cl->a = parse_expr(ps);
		ps->in_pred--;
		if (!cl->a || ps->failed)
			goto recover;
		if (!parse_accept(ps, '/')) {
			parse_error(ps, lex_after(&ps->prev), "expected '/' at end of predicate");
			parse_note(ps, slash.loc, "predicate starts here");
			if (parse_is_op(parse_peek(ps), '{'))
				goto body;
			goto recover;
		}
		if (lex_next_char(&ps->lx, ps->lx.st.pos) != '{') {
			struct token t = lex_peek(&ps->lx);
			if (ps->opts->descriptions && (t.kind == TOK_EOF || !same_line(&t, &ps->prev))) {
				cl->ival = 1;
				goto done;
			}
			parse_error(ps, lex_after(&ps->prev), "expected '{' after predicate");
			goto recover;
		}
	} else if (c != '{') {
		if (ps->opts->descriptions) {
			cl->ival = 1;
			goto done;
		}
		struct token t = lex_peek(&ps->lx);
		if (t.kind == TOK_ASSIGN || parse_is_op(&t, '(') || parse_is_op(&t, '[')) {
			parse_error(ps, last.loc, "statements must appear inside a probe clause");
		} else {
			parse_error(ps, last.loc, "probe description '%.*s' has no clause body",
				    (int)last.len, last.text);
			if (t.kind == TOK_EOF || !same_line(&t, &last))
				return NULL;
		}
		goto recover;
	}
body:
	body(ps, cl);
done:
	cl->loc = parse_span(ps, cl->loc);
	return cl;
recover:
	if (parse_skip_top(ps, true) && !ps->lx.stop)
		body(ps, cl);
	return NULL;
}

/* program: { clause | decl | pragma } */
static struct node *program(struct parser *ps, uint32_t file, size_t len)
{
	struct node *prog = ast_new(ps->ar, N_PROGRAM,
				    (struct loc){ .file = file, .len = (uint32_t)len,
						  .line = 1, .col = 1 });
	struct node **tail = &prog->list;
	for (;;) {
		if (ps->pragmas) {
			*tail = ps->pragmas;
			while (*tail)
				tail = &(*tail)->next;
			ps->pragmas = NULL;
			ps->pragma_tail = &ps->pragmas;
		}
		if (ps->lx.stop)
			break;
		drop_lookahead(ps);
		struct token t = lex_peek(&ps->lx);
		struct node *item = NULL;
		if (t.kind == TOK_EOF) {
			/* Lexed for real, so an unterminated comment is reported. */
			lex_next(&ps->lx, LEX_NORMAL);
			break;
		} else if (t.kind == TOK_PRAGMA) {
			struct token p = lex_next(&ps->lx, LEX_NORMAL);
			pragma(ps, &p);
			continue;
		} else if (parse_starts_decl(ps, &t, NULL) ||
			   (t.kind == TOK_IDENT && t.loc.off + t.len < ps->lx.len &&
			    ps->lx.src[t.loc.off + t.len] == '`')) {
			ps->failed = false;
			item = parse_declaration(ps);
		} else if (parse_is_op(&t, ';')) {
			parse_next(ps);
		} else if (parse_is_op(&t, '}')) {
			parse_next(ps);
			parse_error(ps, t.loc, "extraneous closing brace ('}')");
		} else if (t.kind == TOK_RESERVED) {
			parse_next(ps);
			const char *m = stmt_word_message(t.op);
			if (m)
				parse_error(ps, t.loc, "%s", m);
			else
				parse_error(ps, t.loc, "reserved word '%s' cannot be used",
					    lex_keyword_name(t.op));
			parse_skip_top(ps, false);
		} else {
			item = clause(ps);
		}
		if (item) {
			*tail = item;
			tail = &item->next;
		}
	}
	return prog;
}

static void init(struct parser *ps, struct arena *ar, struct diag *dg, uint32_t file,
		 const char *text, size_t len, const struct parse_opts *opts)
{
	static const struct parse_opts none;
	memset(ps, 0, sizeof(*ps));
	ps->ar = ar;
	ps->dg = dg;
	ps->opts = opts ? opts : &none;
	ps->pragma_tail = &ps->pragmas;
	lex_init(&ps->lx, ar, dg, file, text, len);
}

struct node *parse_program(struct arena *ar, struct diag *dg, uint32_t file,
			   const char *text, size_t len, const struct parse_opts *opts)
{
	struct parser ps;
	init(&ps, ar, dg, file, text, len, opts);
	struct node *prog = program(&ps, file, len);
	const struct node *deep = prog ? ast_deeper_than(prog, PARSE_MAX_HEIGHT) : NULL;
	if (deep)
		parse_error(&ps, deep->loc, "expression or statement is nested too deeply "
			    "(more than %d levels)", PARSE_MAX_HEIGHT);
	return prog;
}

int parse_dump_tokens(FILE *out, struct diag *dg, uint32_t file, const char *text, size_t len)
{
	/* The parser decides where probe descriptions are, so it drives the
	 * lexer; its own errors are not reported here. */
	struct arena *ar = arena_create();
	int before = diag_errors(dg);
	struct parser ps;
	init(&ps, ar, dg, file, text, len, NULL);
	ps.quiet = true;
	ps.lx.trace = out;
	program(&ps, file, len);
	lex_print_token(out, &(struct token){ .kind = TOK_EOF, .text = text + len,
					      .loc = lex_peek(&ps.lx).loc });
	arena_destroy(ar);
	return diag_errors(dg) > before ? -1 : 0;
}
