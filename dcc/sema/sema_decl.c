/*
 * The script's own declarations: struct, union and enum definitions (laid
 * out by C's rules), typedefs, enumerator constants, inline definitions
 * (expanded where used) and translators with xlate (a translated member is
 * the translator's expression for it, with the input bound to the xlate
 * operand). The D library of headers/d is declarations of this kind.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "btf.h"
#include "diag.h"
#include "sema_internal.h"

struct named {
	const char *name;
	int kind;          /* NK_* */
	struct type *t;    /* NK_TAG, NK_TYPEDEF */
	struct node *n;    /* NK_INLINE: the N_INLINE; NK_ENUMERATOR: value in ival */
	int64_t value;
};

enum { NK_STRUCT = 1, NK_UNION, NK_ENUM, NK_TYPEDEF, NK_INLINE, NK_ENUMERATOR, NK_EXTERN };

struct translator {
	struct type *out, *in;
	struct node *n;    /* N_TRANSLATOR */
};

/* The names are found through an open-addressing index of named[] (1 +
 * index, 0 empty), in insertion order along a probe chain, so the first
 * definition of a name is the one found. Every script brings the D
 * library's hundreds of names, looked up at each identifier. */
static unsigned name_hash(int kind, const char *name)
{
	unsigned h = 2166136261u ^ (unsigned)kind;
	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 16777619u;
	return h;
}

static struct named *lookup(struct sema *s, int kind, const char *name)
{
	unsigned mask = s->named_slots - 1;
	for (unsigned h = name_hash(kind, name) & mask; s->named_slots; h = (h + 1) & mask) {
		int i = s->named_index[h] - 1;
		if (i < 0)
			return NULL;
		if (s->named[i].kind == kind && !strcmp(s->named[i].name, name))
			return &s->named[i];
	}
	return NULL;
}

static void index_named(struct sema *s, int i)
{
	unsigned mask = s->named_slots - 1;
	unsigned h = name_hash(s->named[i].kind, s->named[i].name) & mask;
	while (s->named_index[h])
		h = (h + 1) & mask;
	s->named_index[h] = i + 1;
}

static struct named *add(struct sema *s, int kind, const char *name)
{
	if (s->nnamed == s->cap_named) {
		s->cap_named = s->cap_named ? 2 * s->cap_named : 32;
		s->named = realloc(s->named, s->cap_named * sizeof(*s->named));
		if (!s->named)
			abort();
	}
	struct named *d = &s->named[s->nnamed++];
	memset(d, 0, sizeof(*d));
	d->kind = kind;
	d->name = name;
	if (2 * (unsigned)s->nnamed > s->named_slots) {
		free(s->named_index);
		s->named_slots = s->named_slots ? 2 * s->named_slots : 64;
		s->named_index = calloc(s->named_slots, sizeof(*s->named_index));
		if (!s->named_index)
			abort();
		for (int i = 0; i < s->nnamed; i++)
			index_named(s, i);
	} else {
		index_named(s, s->nnamed - 1);
	}
	return d;
}

struct type *sema_user_tag(struct sema *s, int tspec_kind, const char *tag)
{
	struct named *d = lookup(s, tspec_kind == TS_UNION ? NK_UNION : tspec_kind == TS_ENUM
				 ? NK_ENUM : NK_STRUCT, tag);
	return d ? d->t : NULL;
}

struct type *sema_user_typedef(struct sema *s, const char *name)
{
	struct named *d = lookup(s, NK_TYPEDEF, name);
	return d ? d->t : NULL;
}

static unsigned align_of(const struct type *t)
{
	switch (t->kind) {
	case T_ARRAY:
		return align_of(t->ref);
	case T_STRUCT:
	case T_UNION: {
		unsigned a = 1;
		for (int i = 0; i < t->nmembers; i++) {
			unsigned m = align_of(t->members[i].type);
			a = m > a ? m : a;
		}
		return a;
	}
	case T_STRING:
		return 1;
	default:
		return t->size ? t->size : 1;
	}
}

/* The type a declarator makes of a base type: pointers, then arrays. */
int sema_declarator_type(struct sema *s, struct type *base, struct node *d, struct type **out)
{
	/* a function pointer is sized and stored like a void pointer */
	struct type *t = d && (d->iflags & DF_FUNCPTR) ? &type_void : base;
	if (d) {
		for (uint64_t i = 0; i < d->ival; i++)
			t = type_ptr(s->ar, t);
		struct node *dims[8];
		int nd = 0;
		for (struct node *x = d->list; x && nd < 8; x = x->next)
			dims[nd++] = x;
		for (int i = nd - 1; i >= 0; i--) {
			int64_t n;
			if (dims[i]->kind == N_EMPTY || sema_expr(s, dims[i]) ||
			    sema_const(s, dims[i], &n) || n <= 0)
				return diag_error(s->dg, dims[i]->loc, "an array needs a positive "
						  "constant size");
			t = type_array(s->ar, t, (uint64_t)n);
		}
	}
	*out = t;
	return 0;
}

static int define_enum(struct sema *s, struct node *ts)
{
	int64_t next = 0;
	int n = ast_list_len(ts->list), i = 0;
	/* an int that knows its enumerators, which print() shows by name */
	struct type *t = arena_new(s->ar, struct type);
	*t = type_int;
	t->ptr_to = NULL;
	t->name = ts->name ? arena_printf(s->ar, "enum %s", ts->name) : "enum";
	t->enum_names = arena_alloc(s->ar, sizeof(*t->enum_names) * (size_t)(n ? n : 1));
	t->enum_vals = arena_alloc(s->ar, sizeof(*t->enum_vals) * (size_t)(n ? n : 1));
	for (struct node *e = ts->list; e; e = e->next) {
		if (e->a && (sema_expr(s, e->a) || sema_const(s, e->a, &next)))
			return -1;
		if (lookup(s, NK_ENUMERATOR, e->name) || lookup(s, NK_INLINE, e->name))
			return diag_error(s->dg, e->loc, "'%s' is defined twice", e->name);
		t->enum_names[i] = e->name;
		t->enum_vals[i++] = next;
		add(s, NK_ENUMERATOR, e->name)->value = next++;
	}
	t->nenums = i;
	if (ts->name)
		add(s, NK_ENUM, ts->name)->t = t;
	return 0;
}

/* struct/union { members }: lay out by C's rules, bit-fields packed into
 * units of their type */
static int define_struct(struct sema *s, struct node *ts, struct type **out)
{
	bool is_union = ts->ival == TS_UNION;
	struct named *d = ts->name ? lookup(s, is_union ? NK_UNION : NK_STRUCT, ts->name) : NULL;
	/* a forward declaration's type is completed in place, so that pointers
	 * made from it meanwhile see the members */
	struct type *t = d ? d->t : arena_new(s->ar, struct type);
	t->kind = is_union ? T_UNION : T_STRUCT;
	t->tag = ts->name;
	t->name = arena_printf(s->ar, "%s %s", is_union ? "union" : "struct",
			       ts->name ? ts->name : "<anonymous>");
	if (d && d->t->complete)
		return diag_error(s->dg, ts->loc, "%s is defined twice", t->name);
	if (ts->name && !d) /* register first: members may point to the struct itself */
		add(s, is_union ? NK_UNION : NK_STRUCT, ts->name)->t = t;
	int n = 0;
	for (struct node *md = ts->list; md; md = md->next)
		n += md->list ? ast_list_len(md->list) : 1;
	t->members = arena_alloc(s->ar, sizeof(*t->members) * (size_t)(n ? n : 1));
	/* a definition that failed left its members behind: this one starts
	 * over (counting on from them wrote past the new array) */
	t->nmembers = 0;
	uint64_t bits = 0, size = 0;
	unsigned maxalign = 1;
	for (struct node *md = ts->list; md; md = md->next) {
		struct type *base;
		if (sema_tspec(s, md->a, &base))
			return -1;
		for (struct node *dl = md->list; dl; dl = dl->next) {
			struct type *mt;
			if (sema_declarator_type(s, base, dl, &mt))
				return -1;
			if (!mt->size && mt->kind != T_STRING)
				return diag_error(s->dg, dl->loc, "member '%s' has an incomplete "
						  "type '%s'", dl->name, type_str(mt));
			struct member *m = &t->members[t->nmembers++];
			m->name = dl->name;
			m->type = mt;
			/* a string member: DTrace's char[strsize], rounded up to 8 */
			uint64_t msize = mt->kind == T_STRING ? s->strmember : mt->size;
			unsigned al = align_of(mt);
			maxalign = al > maxalign ? al : maxalign;
			if (dl->a) {
				int64_t w;
				if (sema_expr(s, dl->a) || sema_const(s, dl->a, &w))
					return -1;
				const char *bf = dl->name ? dl->name : "(unnamed)";
				if (mt->kind != T_INT)
					return diag_error(s->dg, dl->loc, "bit-field '%s' has "
							  "type '%s': it must be an integer", bf,
							  type_str(mt));
				if (w < 0 || w > (int64_t)mt->size * 8)
					return diag_error(s->dg, dl->a->loc, "invalid bit-field "
							  "width for '%s'", bf);
				if (!w && dl->name)
					return diag_error(s->dg, dl->a->loc, "bit-field '%s' has "
							  "width 0: only an unnamed bit-field may "
							  "have no width", dl->name);
				uint64_t unit = (uint64_t)mt->size * 8;
				uint64_t at = is_union ? 0 : bits;
				if (at / unit != (at + (uint64_t)w - 1) / unit)
					at = (at + unit - 1) / unit * unit;
				m->bit_off = at;
				m->bit_size = (uint32_t)w;
				if (!is_union)
					bits = at + (uint64_t)w;
				size = is_union ? (size > mt->size ? size : mt->size) : size;
			} else {
				uint64_t at = is_union ? 0 : ((bits + 8 * al - 1) / (8 * al)) * (8 * al);
				m->bit_off = at;
				if (is_union)
					size = size > msize ? size : msize;
				else
					bits = at + msize * 8;
			}
		}
	}
	if (!is_union)
		size = (bits + 7) / 8;
	t->size = (unsigned)((size + maxalign - 1) / maxalign * maxalign);
	t->complete = true;
	*out = t;
	return 0;
}

/* A type specifier: base names, the script's typedefs and tags, the
 * kernel's; a body defines the type. */
int sema_tspec(struct sema *s, struct node *ts, struct type **out)
{
	if (ts->ival == TS_STRUCT || ts->ival == TS_UNION || ts->ival == TS_ENUM) {
		if (ts->iflags & TSF_BODY) {
			if (ts->ival == TS_ENUM) {
				*out = &type_int;
				return define_enum(s, ts);
			}
			return define_struct(s, ts, out);
		}
		if (!ts->name)
			return diag_error(s->dg, ts->loc, "expected a tag");
		struct type *t = sema_user_tag(s, (int)ts->ival, ts->name);
		if (t) {
			*out = t;
			return 0;
		}
		if (ts->ival == TS_ENUM) {
			*out = &type_int;
			return 0;
		}
		return sema_kernel_tag(s, ts, out);
	}
	struct type *t = ts->name ? type_by_name(ts->name) : NULL;
	if (!t && ts->name)
		t = sema_user_typedef(s, ts->name);
	if (!t && ts->name && ts->ival == TS_TYPEDEF) {
		struct sema_btf *b = sema_btf(s, ts->loc);
		if (!b)
			return -1;
		t = sema_btf_typedef(b, ts->name);
	}
	if (!t)
		return diag_error(s->dg, ts->loc, "unknown type '%s'", ts->name ? ts->name : "?");
	*out = t;
	return 0;
}

static int define_typedef(struct sema *s, struct node *d)
{
	struct type *base;
	if (sema_tspec(s, d->a, &base))
		return -1;
	for (struct node *dl = d->list; dl; dl = dl->next) {
		struct type *t;
		if (sema_declarator_type(s, base, dl, &t))
			return -1;
		if (lookup(s, NK_TYPEDEF, dl->name))
			return diag_error(s->dg, dl->loc, "typedef '%s' is defined twice", dl->name);
		/* keep the typedef's name on scalars, for messages */
		if (t->kind == T_INT || t->kind == T_PTR) {
			struct type *a = arena_new(s->ar, struct type);
			*a = *t;
			a->name = dl->name;
			a->ptr_to = NULL;
			t = a;
		}
		add(s, NK_TYPEDEF, dl->name)->t = t;
	}
	return 0;
}

/*
 * extern declarations name kernel functions and variables, as C's do. A
 * function is only declared (D calls no kernel function); a variable keeps
 * its type for the message that its use gets. "extern int a[];" has an
 * incomplete type, as in C.
 */
int sema_extern_decl(struct sema *s, struct node *d)
{
	struct type *base;
	if (sema_tspec(s, d->a, &base))
		return -1;
	for (struct node *dl = d->list; dl; dl = dl->next) {
		if (dl->b)
			return diag_error(s->dg, dl->b->loc, "initializers are not allowed in D "
					  "declarations");
		if (dl->iflags & DF_FUNC)
			continue;
		struct node *dims = dl->list;
		bool incomplete = dims && dims->kind == N_EMPTY;
		if (incomplete)
			dl->list = dims->next;
		struct type *t;
		int err = sema_declarator_type(s, base, dl, &t);
		dl->list = dims;
		if (err)
			return -1;
		if (incomplete)
			t = type_array(s->ar, t, 0);
		struct named *e = lookup(s, NK_EXTERN, dl->name);
		if (e && strcmp(e->t->name, t->name))
			return diag_error(s->dg, dl->loc, "extern '%s' is declared '%s', then '%s'",
					  dl->name, type_str(e->t), type_str(t));
		if (!e)
			add(s, NK_EXTERN, dl->name)->t = t;
	}
	return 0;
}

struct type *sema_extern_type(struct sema *s, const char *name)
{
	struct named *d = lookup(s, NK_EXTERN, name);
	return d ? d->t : NULL;
}

int sema_extern_use(struct sema *s, struct node *n)
{
	return diag_error(s->dg, n->loc, "reading kernel variable '%s' (declared extern) is not "
			  "supported yet; use *(%s *)&`%s", n->name,
			  type_str(sema_extern_type(s, n->name)), n->name);
}

/* The script is the diagnostics' first source: compile.c adds it before
 * the D library's files. */
#define SCRIPT_FILE 0

/* Whether expression e names identifier `name` anywhere. */
static bool mentions(const struct node *e, const char *name)
{
	if (!e)
		return false;
	if (e->kind == N_IDENT && !strcmp(e->name, name))
		return true;
	for (const struct node *x = e->list; x; x = x->next)
		if (mentions(x, name))
			return true;
	return mentions(e->a, name) || mentions(e->b, name) || mentions(e->c, name) ||
	       mentions(e->d, name);
}

static int define_inline(struct sema *s, struct node *n)
{
	struct type *t;
	if (sema_typename(s, n->a, &t))
		return -1;
	if (lookup(s, NK_INLINE, n->name) || lookup(s, NK_ENUMERATOR, n->name))
		return diag_error(s->dg, n->loc, "'%s' is defined twice", n->name);
	/* checked where it is defined, as DTrace does, used or not; the D
	 * library's own inlines (sched.d's curcpu) do define builtins */
	if (n->loc.file == SCRIPT_FILE && builtin_find(n->name))
		return diag_error(s->dg, n->loc, "inline '%s' would redefine the builtin '%s'",
				  n->name, n->name);
	if (mentions(n->b, n->name))
		return diag_error(s->dg, n->b->loc, "inline '%s' is defined in terms of itself",
				  n->name);
	struct named *d = add(s, NK_INLINE, n->name);
	d->t = t;
	d->n = n;
	return 0;
}

static struct node *clone(struct sema *s, struct node *n, const char *param, struct node *arg);

/* The declared type of inline `name` as written (dcc -lv: "pktinfo_t *",
 * the typedef's name, not its struct), NULL if there is none. */
const char *sema_inline_typename(struct sema *s, const char *name)
{
	struct named *d = lookup(s, NK_INLINE, name);
	if (!d)
		return NULL;
	const struct node *ts = d->n->a ? d->n->a->a : NULL, *dc = d->n->a ? d->n->a->b : NULL;
	if (!ts || ts->kind != N_TSPEC || ts->ival != TS_TYPEDEF || !ts->name ||
	    (dc && (dc->list || dc->c || dc->ival > 4)))
		return type_str(d->t);
	int depth = dc ? (int)dc->ival : 0;
	return arena_printf(s->ar, "%s%s%.*s", ts->name, depth ? " " : "", depth, "****");
}


/* A script's translator is checked where it is defined, as DTrace does,
 * even if no xlate uses it: each member's expression on a stand-in for the
 * input, (input type)0. The D library's translators are left to their
 * first use, so that a script without one reads no kernel BTF for them. An
 * input type that does not resolve (a tag only named) stands in as 0. */
/* Whether a translator's expression of type et can give a member of type
 * mt, by the rules of assignment: a pointer takes no integer but the
 * constant 0, an integer no pointer, string or struct, a struct only its
 * own type. */
static bool member_takes(const struct type *mt, struct node *e)
{
	const struct type *et = e->type;
	int64_t v;
	if (!et)
		return true;
	if (mt->kind == T_PTR)
		return !type_is_int(et) || (sema_const_try(e, &v) && !v);
	if (type_is_int(mt))
		return type_is_int(et) || et->kind == T_FLOAT;
	if (mt->kind == T_STRUCT || mt->kind == T_UNION)
		return et->kind == mt->kind && !strcmp(et->name, mt->name);
	return true;
}

static int check_translator_body(struct sema *s, struct node *n, const struct type *out)
{
	struct type *in;
	diag_mute(s->dg, true);
	bool known = !sema_typename(s, n->b, &in);
	diag_mute(s->dg, false);
	if (known && !type_is_scalar(in))
		return 0; /* a struct input has no stand-in */
	struct node *zero = ast_new(s->ar, N_INT, n->b->loc);
	struct node *arg = zero;
	if (known) {
		arg = ast_new(s->ar, N_CAST, n->b->loc);
		arg->a = n->b;
		arg->b = zero;
	}
	int err = 0, at = 0;
	for (struct node *m = n->list; m; m = m->next) {
		struct node *e = clone(s, m->a, n->name, arg);
		const struct member *om = type_member_from(out, m->name, &at);
		const struct type *mt = om ? om->type : NULL;
		if (sema_expr(s, e))
			err = -1;
		else if (mt && !member_takes(mt, e))
			err = diag_error(s->dg, m->a->loc, "the translator cannot give member '%s' "
					 "of type '%s' a value of type '%s'", m->name,
					 type_str(mt), type_str(e->type));
	}
	return err;
}

/* As in DTrace, a second translator between the same two types is an
 * error, not a replacement. Only a script's translator is checked: the
 * input types are resolved (muted) to compare them, which reads kernel BTF. */
static int check_redeclared(struct sema *s, struct node *n, struct type *out)
{
	struct type *in;
	diag_mute(s->dg, true);
	int bad = sema_typename(s, n->b, &in);
	for (int i = 0; !bad && i < s->ntrans; i++) {
		struct translator *tr = s->trans[i];
		if (tr->out != out || (!tr->in && sema_typename(s, tr->n->b, &tr->in)))
			continue;
		if (!strcmp(tr->in->name, in->name)) {
			diag_mute(s->dg, false);
			return diag_error(s->dg, n->loc, "a translator from '%s' to '%s' is already "
					  "defined", type_str(in), type_str(out));
		}
	}
	diag_mute(s->dg, false);
	return 0;
}

static int define_translator(struct sema *s, struct node *n)
{
	/* the input type is resolved at the first xlate: it is usually a
	 * kernel type, and reading the kernel's BTF is only worth it then */
	struct type *out, *in = NULL;
	if (sema_typename(s, n->a, &out))
		return -1;
	if (out->kind != T_STRUCT && out->kind != T_UNION)
		return diag_error(s->dg, n->a->loc, "a translator's output must be a struct, not "
				  "'%s'", type_str(out));
	/* the D library's translators are checked by every compile */
	int at = 0;
	for (struct node *m = n->list; m; m = m->next) {
		if (!type_member_from(out, m->name, &at))
			return diag_error(s->dg, m->loc, "%s has no member named '%s'",
					  type_str(out), m->name);
	}
	if (n->loc.file == SCRIPT_FILE && (check_translator_body(s, n, out) ||
					   check_redeclared(s, n, out)))
		return -1;
	if (s->ntrans == s->cap_trans) {
		s->cap_trans = s->cap_trans ? 2 * s->cap_trans : 8;
		s->trans = realloc(s->trans, s->cap_trans * sizeof(*s->trans));
	}
	struct translator *tr = arena_new(s->ar, struct translator);
	tr->out = out;
	tr->in = in;
	tr->n = n;
	s->trans[s->ntrans++] = tr;
	return 0;
}

/* Declarations that define names; variable declarations are sema.c's. */
/* `struct foo;` alone: a tag neither the script nor the kernel defines yet. */
static bool is_forward_decl(struct sema *s, struct node *ts)
{
	if ((ts->ival != TS_STRUCT && ts->ival != TS_UNION) || (ts->iflags & TSF_BODY) ||
	    !ts->name || sema_user_tag(s, (int)ts->ival, ts->name))
		return false;
	/* the kernel's type stays the one the name means; without BTF at
	 * hand the tag is the script's own */
	if (!s->btf && !s->btf_failed) {
		char why[512];
		s->btf = sema_btf_open(s->ar, s->opts.btf_path, why, sizeof(why));
	}
	struct sema_btf *b = s->btf;
	return !b || !sema_btf_struct(b, ts->name, ts->ival == TS_UNION);
}

/* Register an incomplete struct or union, completed by a later definition:
 * until then it can be pointed to but not held (its size is 0). */
static int declare_tag(struct sema *s, struct node *ts)
{
	bool is_union = ts->ival == TS_UNION;
	struct type *t = arena_new(s->ar, struct type);
	t->kind = is_union ? T_UNION : T_STRUCT;
	t->tag = ts->name;
	t->name = arena_printf(s->ar, "%s %s", is_union ? "union" : "struct", ts->name);
	add(s, is_union ? NK_UNION : NK_STRUCT, ts->name)->t = t;
	return 0;
}

int sema_define(struct sema *s, struct node *d)
{
	switch (d->kind) {
	case N_INLINE:
		return define_inline(s, d);
	case N_TRANSLATOR:
		return define_translator(s, d);
	case N_PROVIDER:
		return diag_error(s->dg, d->loc, "a provider definition makes a C header of USDT "
				  "probes with dcc -h; a script traces them as %s$target:::NAME",
				  d->name);
	case N_DECL:
		if (d->ival == ST_TYPEDEF)
			return define_typedef(s, d);
		if (!d->list) {
			struct type *t;
			if (is_forward_decl(s, d->a))
				return declare_tag(s, d->a);
			return sema_tspec(s, d->a, &t);
		}
		return 1; /* a variable declaration */
	default:
		return 1;
	}
}

/* Deep copy of an expression with the identifier `param` replaced by a copy
 * of `arg`; node types and symbols are cleared for a fresh check. */
/* A copy of n with each identifier names[i] replaced by a copy of args[i]. */
static struct node *clone_sub(struct sema *s, struct node *n, int np, const char **names,
			      struct node **args)
{
	if (!n)
		return NULL;
	for (int i = 0; i < np && n->kind == N_IDENT; i++)
		if (!strcmp(n->name, names[i]))
			return clone_sub(s, args[i], 0, NULL, NULL);
	struct node *c = arena_new(s->ar, struct node);
	s->cloned++;
	*c = *n;
	c->a = clone_sub(s, n->a, np, names, args);
	c->b = clone_sub(s, n->b, np, names, args);
	c->c = clone_sub(s, n->c, np, names, args);
	c->d = clone_sub(s, n->d, np, names, args);
	struct node **tail = &c->list;
	*tail = NULL;
	for (struct node *x = n->list; x; x = x->next) {
		*tail = clone_sub(s, x, np, names, args);
		(*tail)->next = NULL;
		tail = &(*tail)->next;
	}
	if (n->kind != N_IDENT || n->id != B_CURTHREAD)
		c->type = n->kind == N_STR ? n->type : NULL;
	c->sym = NULL;
	return c;
}

static struct node *clone(struct sema *s, struct node *n, const char *param, struct node *arg)
{
	return clone_sub(s, n, param ? 1 : 0, &param, &arg);
}

/* Replace n (in place) by `with`, keeping n's place in its list and its
 * location for messages. */
static void replace(struct node *n, struct node *with)
{
	struct node *next = n->next;
	struct loc loc = n->loc;
	*n = *with;
	n->next = next;
	n->loc = loc;
}

int sema_limit(struct sema *s, struct loc loc, const char *fmt, ...)
{
	int before = diag_errors(s->dg);
	if (!s->limit_reported) {
		char msg[256];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		diag_error(s->dg, loc, "%s", msg);
	}
	s->limit_reported |= diag_errors(s->dg) > before;
	return -1;
}

static int expand_inline(struct sema *s, struct named *d, struct node *n, int np,
			 const char **names, struct node **args);

/* An identifier that names an inline or an enumerator: expand it. 1 if it
 * is neither. */
int sema_expand_name(struct sema *s, struct node *n)
{
	struct named *d = lookup(s, NK_ENUMERATOR, n->name);
	if (d) {
		n->kind = N_INT;
		n->ival = (uint64_t)d->value;
		n->iflags = 0;
		n->type = &type_int;
		return 0;
	}
	d = lookup(s, NK_INLINE, n->name);
	if (!d)
		return 1;
	if (d->n->c)
		return diag_error(s->dg, n->loc, "inline '%s' has parameters: use %s[...]",
				  d->name, d->name);
	return expand_inline(s, d, n, 0, NULL, NULL);
}

/* n becomes inline d's body, names[i] in it replaced by args[i], typed. */
static int expand_inline(struct sema *s, struct named *d, struct node *n, int np,
			 const char **names, struct node **args)
{
	if (s->inline_depth >= SEMA_MAX_INLINE_DEPTH) {
		bool self = false;
		for (int i = 0; i < s->inline_depth; i++)
			self |= !strcmp(s->inline_names[i], d->name);
		/* reported once: an inline used twice by the one before would
		 * otherwise report it 2^16 times */
		if (self)
			return sema_limit(s, n->loc, "inline '%s' expands into itself", d->name);
		return sema_limit(s, n->loc, "inlines are nested too deeply: '%s' is inside %d "
				  "others", d->name, s->inline_depth);
	}
	if (s->cloned > SEMA_MAX_CLONED)
		return sema_limit(s, n->loc, "inline '%s' makes the program too large: inlines "
				  "expand to more than %d nodes", d->name, SEMA_MAX_CLONED);
	replace(n, clone_sub(s, d->n->b, np, names, args));
	s->inline_names[s->inline_depth] = d->name;
	s->inline_depth++;
	int err = sema_expr(s, n);
	s->inline_depth--;
	if (err)
		return -1;
	struct type *t = d->t;
	if (type_is_int(t) && type_is_int(n->type)) {
		n->type = t; /* an inline int constant takes its declared type */
		return 0;
	}
	if (((t->kind == T_STRING) != (n->type->kind == T_STRING) &&
	     !(t->kind == T_PTR && n->type->kind == T_PTR)) ||
	    ((type_is_float(t) || type_is_float(n->type)) && !sema_float_same(t, n->type)))
		return diag_error(s->dg, n->loc, "inline '%s' is declared '%s' but its value is "
				  "'%s'", d->name, type_str(t), type_str(n->type));
	return 0;
}

/* Whether n, an N_INDEX, is the use of an inline with parameters. */
bool sema_is_param_inline(struct sema *s, struct node *n)
{
	struct named *d = n->a->kind == N_IDENT ? lookup(s, NK_INLINE, n->a->name) : NULL;
	return d && d->n->c;
}

/* sum[1, x] of "inline int sum[int a, int b] = a + b": the body with each
 * parameter replaced by its argument converted to the parameter's type. */
int sema_inline_index(struct sema *s, struct node *n)
{
	struct named *d = lookup(s, NK_INLINE, n->a->name);
	const char *names[SEMA_MAX_INLINE_PARAMS];
	struct node *args[SEMA_MAX_INLINE_PARAMS];
	int np = 0, na = 0;
	struct node *a = n->list;
	for (struct node *p = d->n->c; p; p = p->next, np++) {
		if (!a || np == SEMA_MAX_INLINE_PARAMS)
			break;
		struct node *tn = ast_new(s->ar, N_TYPENAME, p->loc);
		tn->a = p->a;
		tn->b = p->b;
		args[np] = ast_new(s->ar, N_CAST, a->loc);
		args[np]->a = tn;
		args[np]->b = a;
		names[np] = p->name;
		a = a->next;
	}
	for (struct node *p = d->n->c; p; p = p->next)
		na++;
	int nargs = np;
	for (; a; a = a->next)
		nargs++;
	if (na != nargs || na > SEMA_MAX_INLINE_PARAMS)
		return diag_error(s->dg, n->loc, "inline '%s' takes %d argument%s, not %d",
				  d->name, na, na == 1 ? "" : "s", nargs);
	return expand_inline(s, d, n, np, names, args);
}

int sema_xlate(struct sema *s, struct node *n)
{
	struct type *t;
	if (sema_typename(s, n->a, &t) || sema_expr(s, n->b))
		return -1;
	struct type *out = t->kind == T_PTR ? t->ref : t;
	for (int i = 0; i < s->ntrans; i++) {
		struct translator *tr = s->trans[i];
		if (tr->out != out)
			continue;
		if (!tr->in && sema_typename(s, tr->n->b, &tr->in))
			return -1;
		if (!strcmp(tr->in->name, n->b->type->name)) {
			n->sym = tr;
			n->type = t;
			return 0;
		}
	}
	return diag_error(s->dg, n->loc, "no translator from '%s' to '%s'",
			  type_str(n->b->type), type_str(out));
}

/* A translated value has no representation of its own: only its members
 * can be read (codegen has nothing else to compile). */
static int xlate_walk(struct sema *s, struct node *n, struct node *parent)
{
	int err = 0;
	for (; n; n = n->next) {
		if (n->kind == N_XLATE && !(parent && parent->kind == N_MEMBER && parent->a == n)) {
			bool ptr = n->type && n->type->kind == T_PTR;
			err = diag_error(s->dg, n->loc, "a translated %s can only be used with "
					 "'%s'", ptr ? "pointer" : "struct", ptr ? "->" : ".");
		}
		struct node *kids[5] = { n->a, n->b, n->c, n->d, n->list };
		for (int i = 0; i < 5; i++)
			err |= xlate_walk(s, kids[i], n);
	}
	return err;
}

int sema_xlate_uses(struct sema *s, struct node *clause)
{
	return xlate_walk(s, clause->a, NULL) | xlate_walk(s, clause->b, NULL);
}

/* base->m on an xlate: the translator's expression for m, on the input. */
int sema_translated_member(struct sema *s, struct node *n)
{
	struct node *x = n->a;
	struct translator *tr = x->sym;
	if ((n->op == OP_ARROW) != (x->type->kind == T_PTR))
		return diag_error(s->dg, n->loc, "use '%s' on a translated %s",
				  x->type->kind == T_PTR ? "->" : ".",
				  x->type->kind == T_PTR ? "pointer" : "struct");
	struct member *m = NULL;
	for (int i = 0; i < tr->out->nmembers; i++)
		if (tr->out->members[i].name && !strcmp(tr->out->members[i].name, n->name))
			m = &tr->out->members[i];
	struct node *e = NULL;
	for (struct node *xm = tr->n->list; xm; xm = xm->next)
		if (!strcmp(xm->name, n->name))
			e = xm->a;
	if (!m)
		return diag_error(s->dg, n->loc, "%s has no member named '%s'", type_str(tr->out),
				  n->name);
	if (!e)
		return diag_error(s->dg, n->loc, "the translator to %s does not define '%s'",
				  type_str(tr->out), n->name);
	replace(n, clone(s, e, tr->n->name, x->b));
	if (sema_expr(s, n))
		return -1;
	if (type_is_stringish(m->type) && type_is_stringish(n->type))
		sema_coerce_string(s, n);
	else if (type_is_int(m->type) && type_is_int(n->type))
		sema_retype_int(s, n, m->type);
	return 0;
}

static struct node *member_of(struct sema *s, struct node *base, const char *name)
{
	struct node *m = ast_new(s->ar, N_MEMBER, base->loc);
	m->a = base;
	m->name = name;
	m->op = '.';
	return m;
}

/* v = xlate<T>(e), v a struct variable of type T: the whole output is
 * copied, member by member, as DTrace copies it; a member the translator
 * does not define is filled with zero (first, so that in a union the
 * defined members are the ones left). The assignment becomes that chain
 * of member assignments (a comma expression). */
int sema_xlate_assign(struct sema *s, struct node *n, const struct type *vt)
{
	struct node *probe = clone(s, n->b, NULL, NULL);
	if (sema_expr(s, probe))
		return -1;
	struct translator *tr = probe->sym;
	if (probe->type->kind == T_PTR || tr->out != vt)
		return diag_error(s->dg, n->b->loc, "cannot assign '%s' to a variable of type '%s'",
				  type_str(probe->type), type_str(vt));
	struct node *chain = NULL;
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < tr->out->nmembers; i++) {
			const char *name = tr->out->members[i].name;
			struct node *e = NULL;
			for (struct node *xm = tr->n->list; name && xm; xm = xm->next)
				if (!strcmp(xm->name, name))
					e = xm;
			if (!name || (pass == 0) != !e)
				continue;
			struct node *as = ast_new(s->ar, N_ASSIGN, n->loc);
			as->op = '=';
			as->a = member_of(s, clone(s, n->a, NULL, NULL), name);
			as->b = e ? member_of(s, clone(s, n->b, NULL, NULL), name)
				  : ast_new(s->ar, N_INT, n->loc);
			if (as->b->kind == N_INT)
				as->b->type = &type_int;
			if (!chain) {
				chain = as;
				continue;
			}
			struct node *c = ast_new(s->ar, N_COMMA, n->loc);
			c->a = chain;
			c->b = as;
			chain = c;
		}
	}
	if (!chain) /* a struct with no named member: nothing to copy */
		chain = ast_new(s->ar, N_INT, n->loc);
	replace(n, chain);
	return sema_expr(s, n);
}
