/*
 * D declarations and type names: storage classes, C type specifiers
 * (canonicalized: "long unsigned int" -> "unsigned long"), struct/union/enum
 * bodies, declarators, typedef, inline, translator and provider definitions.
 */
#include "parse_impl.h"

#include <string.h>

enum { DCL_NAMED = 1, DCL_ABSTRACT = 2, DCL_BITFIELD = 4, DCL_INIT = 8, DCL_FUNC = 16 };

static struct node *declarator(struct parser *ps, int flags);
static struct node *type_spec(struct parser *ps, bool force);

bool parse_starts_decl(struct parser *ps, const struct token *t, const struct token *t2)
{
	bool top = t2 == NULL;
	switch (t->kind) {
	case TOK_KEYWORD:
		switch (t->op) {
		case K_SELF:
		case K_THIS:
			return top || parse_starts_type(ps, 1);
		case K_SIZEOF: case K_STRINGOF: case K_OFFSETOF: case K_XLATE:
			return false;
		default:
			return true;
		}
	case TOK_RESERVED:
		return top && (t->op == K_EXTERN || t->op == K_STATIC || t->op == K_REGISTER ||
			       t->op == K_AUTO || t->op == K_VOLATILE);
	case TOK_IDENT:
		if (top) {
			/* "name:..." or "name-..." at the top is a probe description */
			const char *after = t->text + t->len;
			if (after < ps->lx.src + ps->lx.len && *after && strchr(":-*?$.[!\\", *after))
				return false;
		}
		if (!top && t2->kind != TOK_IDENT)
			return false;
		if (parse_is_typedef_name(ps, arena_strndup(ps->ar, t->text, t->len)))
			return true;
		if (top) {
			/* a kernel typedef starts "name x;" or "name *x;" */
			struct token *n = parse_peek_at(ps, 1);
			return (n->kind == TOK_IDENT || parse_is_op(n, '*')) &&
			       parse_is_kernel_typedef(ps, t);
		}
		return parse_is_kernel_typedef(ps, t);
	default:
		return false;
	}
}

static const char *word(struct parser *ps, const struct token *t)
{
	return arena_strndup(ps->ar, t->text, t->len);
}

/* enumerators: name [ "=" cond ] { "," name [ "=" cond ] } [ "," ] */
static void enum_body(struct parser *ps, struct node *ts)
{
	struct node **tail = &ts->list;
	while (!parse_is_op(parse_peek(ps), '}') && parse_peek(ps)->kind != TOK_EOF) {
		struct token t = *parse_peek(ps);
		if (t.kind != TOK_IDENT) {
			parse_error(ps, t.loc, "expected identifier");
			parse_skip_stmt(ps);
			return;
		}
		parse_next(ps);
		struct node *e = ast_new(ps->ar, N_ENUMERATOR, t.loc);
		e->name = word(ps, &t);
		if (parse_is_op(parse_peek(ps), '=') ||
		    (parse_peek(ps)->kind == TOK_ASSIGN && parse_peek(ps)->op == '=')) {
			parse_next(ps);
			if (!(e->a = parse_cond_expr(ps))) {
				parse_skip_stmt(ps);
				return;
			}
		}
		e->loc = parse_span(ps, t.loc);
		*tail = e;
		tail = &e->next;
		if (!parse_accept(ps, ',')) {
			if (!parse_is_op(parse_peek(ps), '}')) {
				parse_error(ps, lex_after(&ps->prev),
					    "expected ',' or '}' after enumerator");
				parse_skip_stmt(ps);
			}
			return;
		}
	}
}

/* members: { type-spec declarator { "," declarator } ";" } */
static void struct_body(struct parser *ps, struct node *ts)
{
	struct node **tail = &ts->list;
	while (!parse_is_op(parse_peek(ps), '}') && parse_peek(ps)->kind != TOK_EOF &&
	       !ps->lx.stop) {
		struct token first = *parse_peek(ps);
		ps->failed = false;
		struct node *spec = type_spec(ps, false);
		if (!spec) {
			parse_skip_stmt(ps);
			continue;
		}
		struct node *m = ast_new(ps->ar, N_DECL, first.loc);
		m->a = spec;
		struct node **dt = &m->list;
		do {
			struct node *d = declarator(ps, DCL_NAMED | DCL_BITFIELD);
			if (!d)
				break;
			*dt = d;
			dt = &d->next;
		} while (parse_accept(ps, ','));
		if (ps->failed) {
			parse_skip_stmt(ps);
			continue;
		}
		if (!parse_accept(ps, ';')) {
			parse_error(ps, lex_after(&ps->prev),
				    "expected ';' at end of declaration list");
			parse_skip_stmt(ps);
		}
		m->loc = parse_span(ps, first.loc);
		*tail = m;
		tail = &m->next;
	}
}

/* struct-or-union-or-enum: ("struct" | "union" | "enum") [ [ module "`" ] name ]
 * [ "{" body "}" ]; the module is kept in str, as for module`type */
static bool su_spec(struct parser *ps, struct node *ts)
{
	struct token kw = parse_next(ps);
	ts->ival = kw.op == K_STRUCT ? TS_STRUCT : kw.op == K_UNION ? TS_UNION : TS_ENUM;
	struct token *t = parse_peek(ps);
	if (t->kind == TOK_IDENT && parse_is_op(parse_peek_at(ps, 1), '`') &&
	    parse_peek_at(ps, 2)->kind == TOK_IDENT) {
		ts->str = word(ps, t);
		parse_next(ps);
		parse_next(ps);
		t = parse_peek(ps);
	}
	if (t->kind == TOK_IDENT) {
		ts->name = word(ps, t);
		parse_next(ps);
	}
	if (!parse_is_op(parse_peek(ps), '{')) {
		if (!ts->name) {
			parse_error(ps, parse_peek(ps)->loc, "expected a name or '{' after '%s'",
				    lex_keyword_name(kw.op));
			return false;
		}
		return true;
	}
	struct token open = parse_next(ps);
	ts->iflags |= TSF_BODY;
	if (kw.op == K_ENUM)
		enum_body(ps, ts);
	else
		struct_body(ps, ts);
	return parse_expect(ps, '}', &open.loc);
}

/* The canonical C name for a set of base type words, or NULL if they clash. */
static const char *base_name(const int *n)
{
	enum { S, U, SH, L, C, I, F, D, V, B };
	int kinds = n[C] + n[I] + n[F] + n[D] + n[V] + n[B];
	if (kinds > 1 || n[S] + n[U] > 1 || n[SH] > 1 || n[L] > 2 || (n[SH] && n[L]))
		return NULL;
	if ((n[C] || n[F] || n[V] || n[B]) && (n[SH] || n[L]))
		return NULL;
	if ((n[F] || n[D] || n[V] || n[B]) && (n[S] || n[U]))
		return NULL;
	if (n[D] && n[L] > 1)
		return NULL;
	if (n[V])
		return "void";
	if (n[B])
		return "_Bool";
	if (n[F])
		return "float";
	if (n[D])
		return n[L] ? "long double" : "double";
	if (n[C])
		return n[U] ? "unsigned char" : n[S] ? "signed char" : "char";
	if (n[SH])
		return n[U] ? "unsigned short" : "short";
	if (n[L] == 2)
		return n[U] ? "unsigned long long" : "long long";
	if (n[L] == 1)
		return n[U] ? "unsigned long" : "long";
	return n[U] ? "unsigned int" : "int";
}

/* type-spec: { "const" | "volatile" | base-word } | "string" | [ module "`" ]
 *            ( struct-or-union-or-enum | typedef-name ) */
static struct node *type_spec_body(struct parser *ps, bool force);

static struct node *type_spec(struct parser *ps, bool force)
{
	if (!parse_nest(ps))
		return NULL;
	struct node *ts = type_spec_body(ps, force);
	ps->depth--;
	return ts;
}

static struct node *type_spec_body(struct parser *ps, bool force)
{
	struct token first = *parse_peek(ps);
	struct node *ts = ast_new(ps->ar, N_TSPEC, first.loc);
	int counts[10] = { 0 };
	bool words = false, named = false;
	for (;;) {
		struct token *t = parse_peek(ps);
		if (parse_is_kw(t, K_CONST) || parse_is_kw(t, K_VOLATILE)) {
			ts->iflags |= t->op == K_CONST ? TSF_CONST : TSF_VOLATILE;
			parse_next(ps);
			continue;
		}
		if (t->kind == TOK_KEYWORD && !named) {
			int idx = -1;
			switch (t->op) {
			case K_SIGNED: idx = 0; ts->iflags |= TSF_SIGNED; break;
			case K_UNSIGNED: idx = 1; ts->iflags |= TSF_UNSIGNED; break;
			case K_SHORT: idx = 2; break;
			case K_LONG: idx = 3; break;
			case K_CHAR: idx = 4; break;
			case K_INT: idx = 5; break;
			case K_FLOAT: idx = 6; break;
			case K_DOUBLE: idx = 7; break;
			case K_VOID: idx = 8; break;
			case K_BOOL: idx = 9; break;
			}
			if (idx >= 0) {
				counts[idx]++;
				words = true;
				parse_next(ps);
				continue;
			}
			if (words)
				break;
			if (t->op == K_STRING) {
				ts->ival = TS_BASE;
				ts->name = "string";
				named = true;
				parse_next(ps);
				continue;
			}
			if (t->op == K_STRUCT || t->op == K_UNION || t->op == K_ENUM) {
				if (!su_spec(ps, ts))
					return NULL;
				named = true;
				continue;
			}
			break;
		}
		if (t->kind == TOK_IDENT && !words && !named) {
			if (parse_is_op(parse_peek_at(ps, 1), '`')) {
				ts->str = word(ps, t);
				parse_next(ps);
				parse_next(ps);
				continue;
			}
			const char *name = word(ps, t);
			if (force || ts->str || parse_is_typedef_name(ps, name) ||
			    parse_is_kernel_typedef(ps, t)) {
				ts->ival = TS_TYPEDEF;
				ts->name = name;
				named = true;
				parse_next(ps);
				continue;
			}
		}
		break;
	}
	if (words && !named) {
		ts->ival = TS_BASE;
		ts->name = base_name(counts);
		if (!ts->name) {
			parse_error(ps, parse_span(ps, first.loc),
				    "invalid combination of type specifiers");
			return NULL;
		}
	} else if (!named) {
		struct token *t = parse_peek(ps);
		parse_error(ps, t->loc, "expected a type name");
		return NULL;
	}
	ts->loc = parse_span(ps, first.loc);
	return ts;
}

/* params: "(" [ type-name [ name ] { "," type-name [ name ] } ] ")" */
static bool params(struct parser *ps, struct node **list, bool *varargs)
{
	struct token open = *parse_peek(ps);
	if (!parse_expect(ps, '(', NULL))
		return false;
	struct node **tail = list;
	if (parse_accept(ps, ')'))
		return true;
	for (;;) {
		if (parse_is_op(parse_peek(ps), P_ELLIPSIS)) {
			if (!varargs) {
				parse_error(ps, parse_peek(ps)->loc,
					    "variadic probe arguments ('...') are not supported");
				return false;
			}
			parse_next(ps);
			*varargs = true;
			break;
		}
		struct node *tn = parse_type_name(ps, true);
		if (!tn)
			return false;
		/* "(void)" says "no parameters": void takes no name and no company */
		bool is_void = tn->a->ival == TS_BASE && !strcmp(tn->a->name, "void") && !tn->b;
		if (is_void && parse_peek(ps)->kind == TOK_IDENT)
			return parse_error(ps, parse_peek(ps)->loc,
					   "a void parameter cannot have a name"), false;
		if (parse_peek(ps)->kind == TOK_IDENT)
			parse_next(ps); /* a parameter name documents only */
		if (is_void && (tail != list || parse_is_op(parse_peek(ps), ',')))
			return parse_error(ps, tn->loc,
					   "void must be the only parameter"), false;
		*tail = tn;
		tail = &tn->next;
		if (!parse_accept(ps, ','))
			break;
	}
	return parse_expect(ps, ')', &open.loc);
}

/*
 * declarator: { "*" [ "const" ] } [ name ] { "[" [ expr | type { "," type } ] "]" }
 *             [ params ] [ ":" width ] [ "=" initializer ]
 */
static struct node *declarator(struct parser *ps, int flags)
{
	struct token first = *parse_peek(ps);
	struct node *d = ast_new(ps->ar, N_DECLARATOR, first.loc);
	while (parse_accept(ps, '*')) {
		d->ival++;
		while (parse_is_kw(parse_peek(ps), K_CONST) ||
		       parse_is_kw(parse_peek(ps), K_VOLATILE) ||
		       parse_is_kw(parse_peek(ps), K_RESTRICT))
			parse_next(ps);
	}
	struct token *t = parse_peek(ps);
	if (parse_is_op(t, '(') && parse_is_op(parse_peek_at(ps, 1), '*')) {
		/* "(*name[dims])(params)": a pointer to a function, or an array of them */
		struct token open = parse_next(ps);
		struct node *in = declarator(ps, flags & (DCL_NAMED | DCL_ABSTRACT));
		if (!in || !parse_expect(ps, ')', &open.loc))
			return NULL;
		bool va = false;
		if (!params(ps, &d->c, &va))
			return NULL;
		in->iflags |= DF_FUNCPTR | (va ? DF_VARARGS : 0);
		in->c = d->c;
		in->loc = parse_span(ps, first.loc);
		return in;
	}
	if (t->kind == TOK_IDENT && !(flags & DCL_ABSTRACT)) {
		d->name = word(ps, t);
		d->loc = t->loc;
		parse_next(ps);
	} else if (flags & DCL_NAMED) {
		if (parse_is_op(t, ':') && (flags & DCL_BITFIELD)) {
			/* an unnamed bit-field */
		} else {
			parse_error(ps, t->loc, "expected identifier");
			return NULL;
		}
	}
	struct node **dims = &d->list;
	while (parse_is_op(parse_peek(ps), '[')) {
		struct token open = parse_next(ps);
		struct node *dim;
		if (parse_is_op(parse_peek(ps), ']')) {
			dim = ast_new(ps->ar, N_EMPTY, parse_peek(ps)->loc);
		} else if (parse_starts_type(ps, 0)) {
			/* an associative array's key types: int a[string, int] */
			dim = parse_type_name(ps, false);
			struct node **kt = &dim;
			while (dim && parse_accept(ps, ',')) {
				kt = &(*kt)->next;
				*kt = parse_type_name(ps, false);
				if (!*kt)
					return NULL;
			}
		} else {
			dim = parse_cond_expr(ps);
		}
		if (!dim || !parse_expect(ps, ']', &open.loc))
			return NULL;
		*dims = dim;
		while (*dims)
			dims = &(*dims)->next;
	}
	if ((flags & DCL_FUNC) && parse_is_op(parse_peek(ps), '(')) {
		d->iflags |= DF_FUNC;
		bool va = false;
		if (!params(ps, &d->c, &va))
			return NULL;
		d->iflags |= va ? DF_VARARGS : 0;
	}
	if ((flags & DCL_BITFIELD) && parse_accept(ps, ':')) {
		if (!(d->a = parse_cond_expr(ps)))
			return NULL;
	}
	t = parse_peek(ps);
	if ((flags & DCL_INIT) && t->kind == TOK_ASSIGN && t->op == '=') {
		parse_next(ps);
		if (!(d->b = parse_assign_expr(ps)))
			return NULL;
	}
	if (ps->prev.loc.off >= first.loc.off)
		d->loc = parse_span(ps, first.loc);
	return d;
}

struct node *parse_type_name(struct parser *ps, bool force)
{
	struct token first = *parse_peek(ps);
	struct node *ts = type_spec(ps, force);
	if (!ts)
		return NULL;
	struct node *tn = ast_new(ps->ar, N_TYPENAME, first.loc);
	tn->a = ts;
	if (parse_is_op(parse_peek(ps), '*') || parse_is_op(parse_peek(ps), '[')) {
		if (!(tn->b = declarator(ps, DCL_ABSTRACT)))
			return NULL;
	}
	tn->loc = parse_span(ps, first.loc);
	return tn;
}

/* An abstract copy of a named declarator (pointer depth and dimensions). */
static struct node *abstract_of(struct parser *ps, const struct node *d)
{
	if (!d->ival && !d->list)
		return NULL;
	struct node *a = ast_new(ps->ar, N_DECLARATOR, d->loc);
	a->ival = d->ival;
	a->list = d->list;
	return a;
}

static bool end_decl(struct parser *ps, const char *what)
{
	if (parse_accept(ps, ';'))
		return true;
	struct token *t = parse_peek(ps);
	parse_error(ps, lex_after(&ps->prev), "expected ';' after %s", what);
	/* A following item on a new line is left alone. */
	if (t->kind != TOK_EOF && t->loc.line == ps->prev.loc.line)
		parse_skip_top(ps, false);
	return false;
}

/* inline-params: "[" type-name name { "," type-name name } "]", as N_TYPENAMEs
 * whose name is the parameter's */
static bool inline_params(struct parser *ps, struct node **list)
{
	struct token open = parse_next(ps);
	do {
		struct node *tn = parse_type_name(ps, true);
		if (!tn)
			return false;
		struct token *t = parse_peek(ps);
		if (t->kind != TOK_IDENT)
			return parse_error(ps, t->loc, "expected the name of a parameter"), false;
		tn->name = word(ps, t);
		parse_next(ps);
		*list = tn;
		list = &tn->next;
	} while (parse_accept(ps, ','));
	return parse_expect(ps, ']', &open.loc);
}

/* inline: "inline" type-spec declarator [ inline-params ] "=" expr ";" */
static struct node *inline_def(struct parser *ps, struct token kw)
{
	struct node *ts = type_spec(ps, true), *d, *params = NULL;
	if (!ts)
		return NULL;
	if (parse_peek(ps)->kind == TOK_IDENT && parse_is_op(parse_peek_at(ps, 1), '[') &&
	    parse_starts_type(ps, 2)) {
		/* "inline int sum[int x, int y] = x + y;": an inline with parameters */
		d = ast_new(ps->ar, N_DECLARATOR, parse_peek(ps)->loc);
		d->name = word(ps, parse_peek(ps));
		parse_next(ps);
		if (!inline_params(ps, &params))
			return NULL;
	} else if (!(d = declarator(ps, DCL_NAMED)))
		return NULL;
	struct token *t = parse_peek(ps);
	if (t->kind != TOK_ASSIGN || t->op != '=') {
		parse_error(ps, t->loc, "expected '=' after the name of inline '%s'", d->name);
		return NULL;
	}
	parse_next(ps);
	struct node *n = ast_new(ps->ar, N_INLINE, kw.loc);
	n->name = d->name;
	n->a = ast_new(ps->ar, N_TYPENAME, ts->loc);
	n->a->a = ts;
	n->a->b = abstract_of(ps, d);
	n->c = params;
	if (!(n->b = parse_assign_expr(ps)))
		return NULL;
	n->loc = parse_span(ps, kw.loc);
	end_decl(ps, "inline definition");
	return n;
}

/* translator: "translator" type "<" type-spec declarator ">" "{" { name "=" expr ";" } "}" ";" */
static struct node *translator_def(struct parser *ps, struct token kw)
{
	struct node *n = ast_new(ps->ar, N_TRANSLATOR, kw.loc);
	if (!(n->a = parse_type_name(ps, true)))
		return NULL;
	struct loc lt = parse_peek(ps)->loc;
	if (!parse_expect(ps, '<', NULL))
		return NULL;
	struct token first = *parse_peek(ps);
	struct node *ts = type_spec(ps, true);
	if (!ts)
		return NULL;
	struct node *d = declarator(ps, DCL_NAMED);
	if (!d || !parse_expect(ps, '>', &lt))
		return NULL;
	n->name = d->name;
	n->b = ast_new(ps->ar, N_TYPENAME, first.loc);
	n->b->a = ts;
	n->b->b = abstract_of(ps, d);
	struct token open = *parse_peek(ps);
	if (!parse_expect(ps, '{', NULL))
		return NULL;
	struct node **tail = &n->list;
	while (!parse_is_op(parse_peek(ps), '}') && parse_peek(ps)->kind != TOK_EOF &&
	       !ps->lx.stop) {
		struct token t = *parse_peek(ps);
		if (t.kind != TOK_IDENT && t.kind != TOK_KEYWORD) {
			parse_error(ps, t.loc, "expected a member name in translator");
			parse_skip_stmt(ps);
			continue;
		}
		parse_next(ps);
		struct token *eq = parse_peek(ps);
		if (eq->kind != TOK_ASSIGN || eq->op != '=') {
			parse_error(ps, eq->loc, "expected '=' after translator member '%.*s'",
				    (int)t.len, t.text);
			parse_skip_stmt(ps);
			continue;
		}
		parse_next(ps);
		struct node *m = ast_new(ps->ar, N_XMEMBER, t.loc);
		m->name = word(ps, &t);
		ps->failed = false;
		if (!(m->a = parse_expr(ps))) {
			parse_skip_stmt(ps);
			continue;
		}
		m->loc = parse_span(ps, t.loc);
		*tail = m;
		tail = &m->next;
		if (!parse_accept(ps, ';')) {
			parse_error(ps, lex_after(&ps->prev),
				    "expected ';' after translator member");
			parse_skip_stmt(ps);
		}
	}
	if (!parse_expect(ps, '}', &open.loc))
		return NULL;
	n->loc = parse_span(ps, kw.loc);
	end_decl(ps, "translator");
	return n;
}

/* provider: "provider" name "{" { "probe" name params [ ":" params ] ";" } "}" ";" */
static struct node *provider_def(struct parser *ps, struct token kw)
{
	struct token name = *parse_peek(ps);
	if (name.kind != TOK_IDENT) {
		parse_error(ps, name.loc, "expected a provider name");
		return NULL;
	}
	parse_next(ps);
	struct node *n = ast_new(ps->ar, N_PROVIDER, kw.loc);
	n->name = word(ps, &name);
	struct token open = *parse_peek(ps);
	if (!parse_expect(ps, '{', NULL))
		return NULL;
	struct node **tail = &n->list;
	while (!parse_is_op(parse_peek(ps), '}') && parse_peek(ps)->kind != TOK_EOF &&
	       !ps->lx.stop) {
		struct token t = *parse_peek(ps);
		if (t.kind != TOK_IDENT || t.len != 5 || memcmp(t.text, "probe", 5)) {
			parse_error(ps, t.loc, "expected 'probe' in provider '%s'", n->name);
			parse_skip_stmt(ps);
			continue;
		}
		parse_next(ps);
		struct token pn = *parse_peek(ps);
		if (pn.kind != TOK_IDENT) {
			parse_error(ps, pn.loc, "expected a probe name");
			parse_skip_stmt(ps);
			continue;
		}
		parse_next(ps);
		struct node *d = ast_new(ps->ar, N_DECLARATOR, pn.loc);
		d->name = word(ps, &pn);
		d->iflags = DF_FUNC;
		ps->failed = false;
		if (!params(ps, &d->c, NULL) ||
		    (parse_accept(ps, ':') && !params(ps, &d->d, NULL))) {
			parse_skip_stmt(ps);
			continue;
		}
		d->loc = parse_span(ps, t.loc);
		*tail = d;
		tail = &d->next;
		if (!parse_accept(ps, ';')) {
			parse_error(ps, lex_after(&ps->prev),
				    "expected ';' after probe declaration");
			parse_skip_stmt(ps);
		}
	}
	if (!parse_expect(ps, '}', &open.loc))
		return NULL;
	n->loc = parse_span(ps, kw.loc);
	end_decl(ps, "provider");
	return n;
}

/* "extern x;", "self x;": a storage class and a name with no type is an int */
static bool implicit_int(struct parser *ps)
{
	struct token *t = parse_peek(ps), *t2 = parse_peek_at(ps, 1);
	if (t->kind != TOK_IDENT || parse_is_typedef_name(ps, word(ps, t)))
		return false;
	return parse_is_op(t2, ';') || parse_is_op(t2, ',') || parse_is_op(t2, '[') ||
	       parse_is_op(t2, '(');
}

static struct node *decl_body(struct parser *ps)
{
	struct token first = *parse_peek(ps);
	struct node *d = ast_new(ps->ar, N_DECL, first.loc);
	struct token *t = parse_peek(ps);
	if (t->kind == TOK_RESERVED || t->kind == TOK_KEYWORD) {
		switch (t->op) {
		case K_EXTERN: d->ival = ST_EXTERN; break;
		case K_STATIC: d->ival = ST_STATIC; break;
		case K_REGISTER: d->ival = ST_REGISTER; break;
		case K_AUTO: d->ival = ST_AUTO; break;
		case K_SELF: d->ival = ST_SELF; break;
		case K_THIS: d->ival = ST_THIS; break;
		case K_TYPEDEF: d->ival = ST_TYPEDEF; break;
		case K_INLINE: parse_next(ps); return inline_def(ps, first);
		case K_TRANSLATOR: parse_next(ps); return translator_def(ps, first);
		case K_PROVIDER: parse_next(ps); return provider_def(ps, first);
		}
		if (d->ival)
			parse_next(ps);
	}
	if (d->ival && implicit_int(ps)) {
		d->a = ast_new(ps->ar, N_TSPEC, parse_peek(ps)->loc);
		d->a->ival = TS_BASE;
		d->a->name = "int";
	} else if (!(d->a = type_spec(ps, false)))
		return NULL;
	struct node **tail = &d->list;
	struct token *t2 = parse_peek(ps);
	if ((d->a->iflags & TSF_BODY) && t2->kind == TOK_IDENT &&
	    t2->loc.line != ps->prev.loc.line) {
		/* "struct s { ... }" and a new line that does not continue it */
		struct token *t3 = parse_peek_at(ps, 1);
		if (!parse_is_op(t3, ';') && !parse_is_op(t3, ',') && !parse_is_op(t3, '[') &&
		    t3->kind != TOK_ASSIGN) {
			d->loc = parse_span(ps, first.loc);
			parse_error(ps, lex_after(&ps->prev), "expected ';' after %s",
				    lex_keyword_name(d->a->ival == TS_STRUCT ? K_STRUCT :
						     d->a->ival == TS_UNION ? K_UNION : K_ENUM));
			return d;
		}
	}
	if (!parse_is_op(parse_peek(ps), ';')) {
		do {
			struct node *dc = declarator(ps, DCL_NAMED | DCL_INIT | DCL_FUNC);
			if (!dc)
				return NULL;
			if (d->ival == ST_TYPEDEF)
				parse_add_typedef(ps, dc->name);
			*tail = dc;
			tail = &dc->next;
		} while (parse_accept(ps, ','));
	}
	d->loc = parse_span(ps, first.loc);
	/* "int;" and "extern int;" declare nothing: only a struct, union or
	 * enum may stand alone, declaring its tag */
	if (!d->list && d->a->ival != TS_STRUCT && d->a->ival != TS_UNION && d->a->ival != TS_ENUM)
		parse_error(ps, d->loc, "useless declaration: it declares no name");
	const char *what = "declaration";
	if (!d->list && (d->a->iflags & TSF_BODY))
		what = d->a->ival == TS_STRUCT ? "struct" : d->a->ival == TS_UNION ? "union" : "enum";
	end_decl(ps, what);
	return d;
}

/* decl: [ storage ] type-spec [ declarator { "," declarator } ] ";" | inline | translator
 *     | provider */
struct node *parse_declaration(struct parser *ps)
{
	ps->failed = false;
	struct node *d = decl_body(ps);
	if (!d) {
		parse_skip_top(ps, false);
		return NULL;
	}
	return d;
}
