/*
 * D expressions: C precedence and associativity plus '^^' (between '&&' and
 * '||'), aggregations, macro variables, self->/this->, sizeof, stringof,
 * offsetof, xlate and casts. Every function returns NULL after reporting an
 * error (ps->failed set); the statement level then skips ahead.
 */
#include "parse_impl.h"

#include <string.h>

static struct node *unary(struct parser *ps);

static struct node *node(struct parser *ps, enum node_kind kind, struct loc loc)
{
	return ast_new(ps->ar, kind, loc);
}

static int binary_prec(const struct token *t)
{
	if (t->kind != TOK_PUNCT)
		return 0;
	switch (t->op) {
	case OP_LOR: return 1;
	case OP_LXOR: return 2;
	case OP_LAND: return 3;
	case '|': return 4;
	case '^': return 5;
	case '&': return 6;
	case OP_EQ: case OP_NE: return 7;
	case '<': case '>': case OP_LE: case OP_GE: return 8;
	case OP_SHL: case OP_SHR: return 9;
	case '+': case '-': return 10;
	case '*': case '/': case '%': return 11;
	default: return 0;
	}
}

/* Inside a predicate, the '/' that ends it is followed by the clause's '{'
 * (or the end of the text / of the line for -n descriptions). */
static bool predicate_end(struct parser *ps, const struct token *t)
{
	if (!ps->in_pred || !parse_is_op(t, '/'))
		return false;
	size_t off = t->loc.off + 1;
	int c = lex_next_char(&ps->lx, off);
	if (c == '{' || c == 0)
		return true;
	if (ps->opts->descriptions) {
		const char *s = ps->lx.src;
		while (off < ps->lx.len && (s[off] == ' ' || s[off] == '\t'))
			off++;
		return off >= ps->lx.len || s[off] == '\n';
	}
	return false;
}

/* binary: unary { binop unary }, by precedence climbing (all left-associative) */
static struct node *binary(struct parser *ps, int min_prec)
{
	struct node *l = unary(ps);
	if (!l)
		return NULL;
	for (;;) {
		struct token *t = parse_peek(ps);
		int prec = binary_prec(t);
		if (!prec || prec < min_prec || predicate_end(ps, t))
			return l;
		struct token op = parse_next(ps);
		struct node *r = binary(ps, prec + 1);
		if (!r)
			return NULL;
		struct node *n = node(ps, N_BINOP, l->loc);
		n->op = op.op;
		n->op_loc = op.loc;
		n->a = l;
		n->b = r;
		n->loc = parse_span(ps, l->loc);
		l = n;
	}
}

/* cond: binary [ "?" expr ":" cond ] */
struct node *parse_cond_expr(struct parser *ps)
{
	struct node *c = binary(ps, 1);
	if (!c || !parse_is_op(parse_peek(ps), '?'))
		return c;
	struct token q = parse_next(ps);
	struct node *b = parse_expr(ps);
	if (!b)
		return NULL;
	if (!parse_accept(ps, ':')) {
		parse_error(ps, parse_peek(ps)->loc, "expected ':'");
		parse_note(ps, q.loc, "to match this '?'");
		return NULL;
	}
	if (!parse_nest(ps))
		return NULL;
	struct node *e = parse_cond_expr(ps);
	ps->depth--;
	if (!e)
		return NULL;
	struct node *n = node(ps, N_COND, c->loc);
	n->op = '?';
	n->op_loc = q.loc;
	n->a = c;
	n->b = b;
	n->c = e;
	n->loc = parse_span(ps, c->loc);
	return n;
}

static struct node *assign(struct parser *ps);

/* assign: cond [ assignop assign ] (right-associative) */
struct node *parse_assign_expr(struct parser *ps)
{
	if (!parse_nest(ps))
		return NULL;
	struct node *n = assign(ps);
	ps->depth--;
	return n;
}

static struct node *assign(struct parser *ps)
{
	struct node *l = parse_cond_expr(ps);
	if (!l || parse_peek(ps)->kind != TOK_ASSIGN)
		return l;
	struct token op = parse_next(ps);
	struct node *r = parse_assign_expr(ps);
	if (!r)
		return NULL;
	struct node *n = node(ps, N_ASSIGN, l->loc);
	n->op = op.op;
	n->op_loc = op.loc;
	n->a = l;
	n->b = r;
	n->loc = parse_span(ps, l->loc);
	return n;
}

/* expr: assign { "," assign } */
struct node *parse_expr(struct parser *ps)
{
	struct node *l = parse_assign_expr(ps);
	while (l && parse_is_op(parse_peek(ps), ',')) {
		struct token op = parse_next(ps);
		struct node *r = parse_assign_expr(ps);
		if (!r)
			return NULL;
		struct node *n = node(ps, N_COMMA, l->loc);
		n->op = ',';
		n->op_loc = op.loc;
		n->a = l;
		n->b = r;
		n->loc = parse_span(ps, l->loc);
		l = n;
	}
	return l;
}

/* Whether the word at k reads as a cast's type if it names one: "(w)" and
 * an operand after, or "(w *)", "(w **". The kernel has typedefs with names
 * like "code", which "(code)" or "(code * 2)" must still read as a variable. */
static bool kernel_cast(struct parser *ps, int k)
{
	struct token *u = parse_peek_at(ps, k + 1), *v = parse_peek_at(ps, k + 2);
	if (parse_is_op(u, '*'))
		return parse_is_op(v, ')') || parse_is_op(v, '*');
	if (!parse_is_op(u, ')'))
		return false;
	switch (v->kind) {
	case TOK_IDENT: case TOK_KEYWORD: case TOK_INT: case TOK_CHAR: case TOK_STRING:
	case TOK_MACRO:
		return true;
	case TOK_PUNCT:
		/* not '+', '*', '&': "(code) * 2" is more likely than a cast */
		return v->op == '(' || v->op == '-' || v->op == '!' || v->op == '~';
	default:
		return false;
	}
}

bool parse_starts_type(struct parser *ps, int k)
{
	struct token *t = parse_peek_at(ps, k);
	if (t->kind == TOK_KEYWORD) {
		switch (t->op) {
		case K_CHAR: case K_SHORT: case K_INT: case K_LONG: case K_SIGNED:
		case K_UNSIGNED: case K_FLOAT: case K_DOUBLE: case K_VOID: case K_BOOL:
		case K_CONST: case K_STRUCT: case K_UNION: case K_ENUM: case K_STRING:
			return true;
		default:
			return false;
		}
	}
	if (parse_is_kw(t, K_VOLATILE))
		return true;
	if (t->kind != TOK_IDENT)
		return false;
	if (parse_is_op(parse_peek_at(ps, k + 1), '`')) {
		/* module`type: a keyword type or a known typedef after the quote */
		struct token *u = parse_peek_at(ps, k + 2);
		if (u->kind == TOK_KEYWORD)
			return parse_starts_type(ps, k + 2);
		return u->kind == TOK_IDENT &&
		       parse_is_typedef_name(ps, arena_strndup(ps->ar, u->text, u->len));
	}
	if (parse_is_typedef_name(ps, arena_strndup(ps->ar, t->text, t->len)))
		return true;
	return kernel_cast(ps, k) && parse_is_kernel_typedef(ps, t);
}

/* A member name after '.', '->', self->, this->: any word, keywords included. */
static const char *member_name(struct parser *ps, const char *after)
{
	struct token *t = parse_peek(ps);
	if (t->kind != TOK_IDENT && t->kind != TOK_KEYWORD && t->kind != TOK_RESERVED) {
		parse_error(ps, t->loc, "expected a member name after '%s'", after);
		return NULL;
	}
	parse_next(ps);
	return arena_strndup(ps->ar, t->text, t->len);
}

/* args: [ assign { "," assign } ] up to `close` (not consumed) */
static bool arg_list(struct parser *ps, int close, struct node **list)
{
	struct node **tail = list;
	*list = NULL;
	if (parse_is_op(parse_peek(ps), close))
		return true;
	for (;;) {
		struct node *a = parse_assign_expr(ps);
		if (!a)
			return false;
		*tail = a;
		tail = &a->next;
		if (!parse_accept(ps, ','))
			return true;
	}
}

/* symbol: [ module ] "`" ident -- a kernel symbol: N_IDENT with op '`',
 * str the module or NULL */
static struct node *kernel_symbol(struct parser *ps, struct loc start, const struct token *mod)
{
	parse_next(ps); /* '`' */
	if (parse_peek(ps)->kind != TOK_IDENT) {
		parse_error(ps, parse_span(ps, start), "expected a kernel symbol name after '`'");
		return NULL;
	}
	struct token id = parse_next(ps);
	struct node *n = node(ps, N_IDENT, start);
	n->name = arena_strndup(ps->ar, id.text, id.len);
	n->str = mod ? arena_strndup(ps->ar, mod->text, mod->len) : NULL;
	n->op = '`';
	n->loc = parse_span(ps, start);
	return n;
}

/* aggregation: "@" [name] [ "[" args "]" ] */
static struct node *aggregation(struct parser *ps, const struct token *t)
{
	parse_next(ps);
	struct node *n = node(ps, N_AGG, t->loc);
	n->name = t->str;
	if (parse_is_op(parse_peek(ps), '[')) {
		struct token open = parse_next(ps);
		if (!arg_list(ps, ']', &n->list))
			return NULL;
		if (!n->list) {
			parse_error(ps, parse_peek(ps)->loc, "expected expression");
			return NULL;
		}
		if (!parse_expect(ps, ']', &open.loc))
			return NULL;
		n->op_loc = open.loc;
	}
	n->loc = parse_span(ps, t->loc);
	return n;
}

/* thread-local and clause-local variables: ("self" | "this") "->" name */
static struct node *local_var(struct parser *ps, const struct token *t)
{
	parse_next(ps);
	if (!parse_accept(ps, OP_ARROW)) {
		parse_error(ps, parse_peek(ps)->loc, "expected '->' after '%s'",
			    t->op == K_SELF ? "self" : "this");
		return NULL;
	}
	const char *m = member_name(ps, "->");
	if (!m)
		return NULL;
	struct node *n = node(ps, t->op == K_SELF ? N_SELF : N_THIS, t->loc);
	n->name = m;
	n->loc = parse_span(ps, t->loc);
	return n;
}

/* offsetof: "offsetof" "(" type "," name ")" */
static struct node *offsetof_expr(struct parser *ps, const struct token *t)
{
	parse_next(ps);
	struct loc open = parse_peek(ps)->loc;
	if (!parse_expect(ps, '(', NULL))
		return NULL;
	struct node *tn = parse_type_name(ps, true);
	if (!tn || !parse_expect(ps, ',', NULL))
		return NULL;
	const char *m = member_name(ps, ",");
	if (!m || !parse_expect(ps, ')', &open))
		return NULL;
	struct node *n = node(ps, N_OFFSETOF, t->loc);
	n->a = tn;
	n->name = m;
	n->loc = parse_span(ps, t->loc);
	return n;
}

/* xlate: "xlate" "<" type ">" "(" expr ")" */
static struct node *xlate_expr(struct parser *ps, const struct token *t)
{
	parse_next(ps);
	struct loc lt = parse_peek(ps)->loc;
	if (!parse_expect(ps, '<', NULL))
		return NULL;
	struct node *tn = parse_type_name(ps, true);
	if (!tn || !parse_expect(ps, '>', &lt))
		return NULL;
	struct loc open = parse_peek(ps)->loc;
	if (!parse_expect(ps, '(', NULL))
		return NULL;
	struct node *e = parse_expr(ps);
	if (!e || !parse_expect(ps, ')', &open))
		return NULL;
	struct node *n = node(ps, N_XLATE, t->loc);
	n->a = tn;
	n->b = e;
	n->loc = parse_span(ps, t->loc);
	return n;
}

/*
 * primary: ident | int | char | string | "@" [name] [ "[" args "]" ] | macro
 *        | ("self" | "this") "->" name | "(" expr ")"
 *        | "offsetof" "(" type "," name ")" | "xlate" "<" type ">" "(" expr ")"
 */
static struct node *primary(struct parser *ps)
{
	struct token *tp = parse_peek(ps);
	struct token t = *tp;
	struct node *n;
	switch (t.kind) {
	case TOK_IDENT:
		parse_next(ps);
		if (parse_is_op(parse_peek(ps), '`'))
			return kernel_symbol(ps, t.loc, &t);
		n = node(ps, N_IDENT, t.loc);
		n->name = arena_strndup(ps->ar, t.text, t.len);
		return n;
	case TOK_INT:
	case TOK_CHAR:
		parse_next(ps);
		n = node(ps, N_INT, t.loc);
		n->ival = t.ival;
		n->iflags = t.iflags;
		return n;
	case TOK_STRING:
		parse_next(ps);
		n = node(ps, N_STR, t.loc);
		n->str = t.str;
		n->slen = t.slen;
		return n;
	case TOK_MACRO:
		parse_next(ps);
		n = node(ps, N_MACRO, t.loc);
		n->name = t.str;
		n->ival = t.ival;
		return n;
	case TOK_AGG:
		return aggregation(ps, &t);
	case TOK_PUNCT:
		if (t.op == '(') {
			parse_next(ps);
			struct node *e = parse_expr(ps);
			if (!e)
				return NULL;
			if (!parse_expect(ps, ')', &t.loc))
				return NULL;
			return e;
		}
		if (t.op == '`' && parse_peek_at(ps, 1)->kind == TOK_IDENT)
			return kernel_symbol(ps, t.loc, NULL);
		if (t.op == '`') {
			parse_error(ps, t.loc, "invalid character '`'");
			return NULL;
		}
		break;
	case TOK_RESERVED:
		parse_error(ps, t.loc, "reserved word '%s' cannot be used", lex_keyword_name(t.op));
		return NULL;
	case TOK_KEYWORD:
		if (t.op == K_SELF || t.op == K_THIS)
			return local_var(ps, &t);
		if (t.op == K_OFFSETOF)
			return offsetof_expr(ps, &t);
		if (t.op == K_XLATE)
			return xlate_expr(ps, &t);
		break;
	default:
		break;
	}
	struct loc l = t.loc;
	if (t.kind == TOK_EOF)
		l.len = 0;
	parse_error(ps, l, "expected expression");
	return NULL;
}

/* postfix: primary { "[" args "]" | "(" args ")" | "." name | "->" name | "++" | "--" } */
static struct node *postfix(struct parser *ps, struct node *n)
{
	while (n) {
		struct token *tp = parse_peek(ps);
		struct token t = *tp;
		if (parse_is_op(&t, '[')) {
			parse_next(ps);
			struct node *x = node(ps, N_INDEX, n->loc);
			x->a = n;
			x->op_loc = t.loc;
			if (!arg_list(ps, ']', &x->list))
				return NULL;
			if (!x->list) {
				parse_error(ps, parse_peek(ps)->loc, "expected expression");
				return NULL;
			}
			if (!parse_expect(ps, ']', &t.loc))
				return NULL;
			x->loc = parse_span(ps, n->loc);
			n = x;
		} else if (parse_is_op(&t, '(')) {
			parse_next(ps);
			struct node *c = node(ps, N_CALL, n->loc);
			if (n->kind == N_IDENT) {
				c->name = n->name;
				c->op_loc = n->loc;
			} else {
				c->a = n;
				c->op_loc = t.loc;
			}
			if (!arg_list(ps, ')', &c->list) || !parse_expect(ps, ')', &t.loc))
				return NULL;
			c->loc = parse_span(ps, n->loc);
			n = c;
		} else if (parse_is_op(&t, '.') || parse_is_op(&t, OP_ARROW)) {
			parse_next(ps);
			const char *m = member_name(ps, t.op == '.' ? "." : "->");
			if (!m)
				return NULL;
			struct node *x = node(ps, N_MEMBER, n->loc);
			x->op = t.op;
			x->op_loc = t.loc;
			x->a = n;
			x->name = m;
			x->loc = parse_span(ps, n->loc);
			n = x;
		} else if (parse_is_op(&t, P_INC) || parse_is_op(&t, P_DEC)) {
			parse_next(ps);
			struct node *x = node(ps, N_UNOP, n->loc);
			x->op = t.op == P_INC ? OP_POSTINC : OP_POSTDEC;
			x->op_loc = t.loc;
			x->a = n;
			x->loc = parse_span(ps, n->loc);
			n = x;
		} else {
			return n;
		}
	}
	return NULL;
}

/*
 * unary: postfix | ("++" | "--") unary | ("-" | "+" | "!" | "~" | "*" | "&") unary
 *      | "sizeof" ( "(" type ")" | unary ) | "stringof" unary | "(" type ")" unary
 */
static struct node *unary_body(struct parser *ps);

static struct node *unary(struct parser *ps)
{
	if (!parse_nest(ps))
		return NULL;
	struct node *n = unary_body(ps);
	ps->depth--;
	return n;
}

static struct node *unary_body(struct parser *ps)
{
	struct token t = *parse_peek(ps);
	struct node *n;
	if (t.kind == TOK_PUNCT) {
		int op = 0;
		switch (t.op) {
		case P_INC: op = OP_PREINC; break;
		case P_DEC: op = OP_PREDEC; break;
		case '-': case '+': case '!': case '~': case '*': case '&': op = t.op; break;
		case '(':
			if (parse_starts_type(ps, 1)) {
				parse_next(ps);
				struct node *tn = parse_type_name(ps, false);
				if (!tn || !parse_expect(ps, ')', &t.loc))
					return NULL;
				struct node *e = unary(ps);
				if (!e)
					return NULL;
				n = node(ps, N_CAST, t.loc);
				n->op_loc = t.loc;
				n->a = tn;
				n->b = e;
				n->loc = parse_span(ps, t.loc);
				return n;
			}
			break;
		}
		if (op) {
			parse_next(ps);
			struct node *a = unary(ps);
			if (!a)
				return NULL;
			n = node(ps, N_UNOP, t.loc);
			n->op = op;
			n->a = a;
			n->loc = parse_span(ps, t.loc);
			return n;
		}
	} else if (parse_is_kw(&t, K_SIZEOF)) {
		parse_next(ps);
		n = node(ps, N_SIZEOF, t.loc);
		if (parse_is_op(parse_peek(ps), '(') &&
		    (parse_starts_type(ps, 1) || (parse_is_op(parse_peek_at(ps, 2), ')') &&
						  parse_is_kernel_typedef(ps, parse_peek_at(ps, 1))))) {
			struct token open = parse_next(ps);
			n->a = parse_type_name(ps, false);
			if (!n->a || !parse_expect(ps, ')', &open.loc))
				return NULL;
			n->ival = 1;
		} else if (!(n->a = unary(ps))) {
			return NULL;
		}
		n->loc = parse_span(ps, t.loc);
		return n;
	} else if (parse_is_kw(&t, K_STRINGOF)) {
		parse_next(ps);
		n = node(ps, N_STRINGOF, t.loc);
		if (!(n->a = unary(ps)))
			return NULL;
		n->loc = parse_span(ps, t.loc);
		return n;
	}
	return postfix(ps, primary(ps));
}
