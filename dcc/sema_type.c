/*
 * Types written in the script (casts, declarations) and kernel types from
 * BTF: type names, struct members with a "did you mean", pointers and the
 * places where D turns char arrays and pointers into strings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "btf.h"
#include "diag.h"
#include "sema_internal.h"

struct dbtf *sema_btf(struct sema *s, struct loc loc)
{
	if (s->btf)
		return s->btf;
	if (s->btf_failed)
		return NULL;
	char why[512];
	s->btf = dbtf_open(s->ar, s->opts.btf_path, why, sizeof(why));
	if (!s->btf) {
		s->btf_failed = true;
		diag_error(s->dg, loc, "kernel types are needed here, but %s (use --btf FILE)",
			   why);
	}
	return s->btf;
}

/* A struct or union by tag: the script's own first, then the kernel's. */
static struct type *tagged(struct sema *s, struct node *ts, struct loc loc)
{
	bool is_union = ts->ival == TS_UNION;
	if (ts->ival == TS_ENUM)
		return &type_int;
	struct dbtf *b = sema_btf(s, loc);
	if (!b)
		return NULL;
	struct type *t = dbtf_struct(b, ts->name, is_union);
	if (!t) {
		const char *base = strrchr(dbtf_path(b), '/');
		diag_error(s->dg, loc, "%s %s is not a type the kernel's BTF has (%s)",
			   is_union ? "union" : "struct", ts->name, base ? base + 1 : dbtf_path(b));
	}
	return t;
}

int sema_typename(struct sema *s, struct node *tn, struct type **out)
{
	struct node *ts = tn->a, *decl = tn->b;
	struct type *t = NULL;
	if (!ts)
		return diag_error(s->dg, tn->loc, "expected a type");
	if (ts->ival == TS_STRUCT || ts->ival == TS_UNION || ts->ival == TS_ENUM) {
		if (ts->iflags & TSF_BODY)
			return diag_error(s->dg, tn->loc, "struct, union and enum definitions are "
					  "not supported yet");
		if (!ts->name)
			return diag_error(s->dg, tn->loc, "expected a struct tag");
		if (!(t = tagged(s, ts, tn->loc)))
			return -1;
	} else {
		t = ts->name ? type_by_name(ts->name) : NULL;
		if (!t && ts->name && ts->ival == TS_TYPEDEF) {
			struct dbtf *b = sema_btf(s, tn->loc);
			if (!b)
				return -1;
			t = dbtf_typedef(b, ts->name);
		}
		if (!t)
			return diag_error(s->dg, tn->loc, "unknown type '%s'",
					  ts->name ? ts->name : "?");
	}
	if (decl) {
		for (uint64_t i = 0; i < decl->ival; i++)
			t = type_ptr(s->ar, t);
		/* dimensions are outermost first: build from the innermost */
		struct node *dims[8];
		int nd = 0;
		for (struct node *d = decl->list; d && nd < 8; d = d->next)
			dims[nd++] = d;
		for (int i = nd - 1; i >= 0; i--) {
			int64_t n;
			if (dims[i]->kind == N_EMPTY || sema_const(s, dims[i], &n) || n <= 0)
				return diag_error(s->dg, dims[i]->loc, "an array type needs a "
						  "positive constant size");
			t = type_array(s->ar, t, (uint64_t)n);
		}
	}
	*out = t;
	return 0;
}

static unsigned edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 64 || lb > 64)
		return 99;
	unsigned d[65][65];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (unsigned)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			unsigned c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			unsigned del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
			d[i][j] = c < del ? (c < ins ? c : ins) : (del < ins ? del : ins);
			/* a swap of two neighbours counts as one edit */
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < d[i][j])
				d[i][j] = d[i - 2][j - 2] + 1;
		}
	return d[la][lb];
}

/* Find a member, descending into anonymous struct/union members; the path
 * records each step (struct, member index). */
static bool find_member(struct sema *s, struct type *st, const char *name,
			struct member_path *mp)
{
	if (!st->complete && (!s->btf || dbtf_complete(s->btf, st)))
		return false;
	for (int i = 0; i < st->nmembers; i++) {
		struct member *m = &st->members[i];
		if (mp->n >= MEMBER_PATH_MAX)
			return false;
		mp->outer[mp->n] = st;
		mp->index[mp->n] = i;
		if (m->name && !strcmp(m->name, name)) {
			mp->n++;
			return true;
		}
		if (!m->name && (m->type->kind == T_STRUCT || m->type->kind == T_UNION)) {
			mp->n++;
			if (find_member(s, m->type, name, mp))
				return true;
			mp->n--;
		}
	}
	return false;
}

static void closest_member(struct sema *s, struct type *st, const char *name, const char **best,
			   unsigned *bestd)
{
	if (!st->complete && (!s->btf || dbtf_complete(s->btf, st)))
		return;
	for (int i = 0; i < st->nmembers; i++) {
		struct member *m = &st->members[i];
		if (!m->name) {
			if (m->type->kind == T_STRUCT || m->type->kind == T_UNION)
				closest_member(s, m->type, name, best, bestd);
			continue;
		}
		unsigned d = edit_distance(name, m->name);
		if (d < *bestd) {
			*bestd = d;
			*best = m->name;
		}
	}
}

int sema_member(struct sema *s, struct node *n)
{
	if (sema_expr(s, n->a))
		return -1;
	struct type *t = n->a->type;
	bool arrow = n->op == OP_ARROW;
	if (arrow) {
		if (t->kind != T_PTR)
			return diag_error(s->dg, n->op_loc.len ? n->op_loc : n->loc, "'->' needs a "
					  "pointer to a struct or union, not '%s'", type_str(t));
		t = t->ref;
	}
	if (t->kind != T_STRUCT && t->kind != T_UNION)
		return diag_error(s->dg, n->loc, "'%s' needs a struct or union%s, not '%s'",
				  arrow ? "->" : ".", arrow ? " pointer" : "", type_str(n->a->type));
	struct member_path *mp = arena_new(s->ar, struct member_path);
	if (!find_member(s, t, n->name, mp)) {
		if (!t->complete)
			return diag_error(s->dg, n->loc, "%s has no known members", type_str(t));
		const char *best = NULL;
		unsigned bestd = 99;
		closest_member(s, t, n->name, &best, &bestd);
		size_t len = strlen(n->name);
		if (best && bestd <= (len < 6 ? 1 : len / 3))
			return diag_error(s->dg, n->loc, "%s has no member named '%s'; did you mean "
					  "'%s'?", type_str(t), n->name, best);
		return diag_error(s->dg, n->loc, "%s has no member named '%s'", type_str(t),
				  n->name);
	}
	struct member *m = &mp->outer[mp->n - 1]->members[mp->index[mp->n - 1]];
	if (m->bit_size)
		return diag_error(s->dg, n->loc, "bit-field member '%s' is not supported yet",
				  n->name);
	n->sym = mp;
	n->type = m->type;
	return 0;
}

/* Where D wants a string, a char array or char pointer becomes one. */
void sema_coerce_string(struct sema *s, struct node *n)
{
	if (!type_is_stringish(n->type))
		return;
	struct node *inner = arena_new(s->ar, struct node);
	*inner = *n;
	inner->next = NULL;
	n->kind = N_STRINGOF;
	n->a = inner;
	n->b = n->c = n->d = n->list = NULL;
	n->sym = NULL;
	n->type = &type_string;
}
