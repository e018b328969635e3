/*
 * print(): walks the metadata's type table (abi.h) over a recorded value and
 * writes it the way DTrace for Linux does (libbpf's typed-data dump): every
 * value as "(type)value"; structs and unions as "(struct foo) {" with one
 * ".member = value," line per member, arrays as "(int [4]) [" with one
 * "value," line per element, each level indented one more space from
 * column 44 (where the probe line leaves the records), members and elements
 * that are all zero left out, an array of bytes ending at its first NUL,
 * chars as 'c', enums by name, pointers and bit-fields in hex. A value cut
 * short by the record, or by the printsize option, shows "..." where its
 * bytes end. Also checks the type table before anything trusts it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include "rt.h"

#define INDENT 44
#define MAX_DEPTH 64

struct walk {
	struct dcc_runtime *rt;
	FILE *out;
	const unsigned char *data;
	uint64_t len;   /* bytes recorded */
	uint64_t limit; /* bytes the printsize option shows, at most len */
	bool truncated; /* "..." written: every open level only closes */
};

static const struct dcc_meta_type *type_at(const struct dcc_runtime *rt, uint32_t i)
{
	return &rt->types[i];
}

static uint64_t get_uint(const unsigned char *p, uint32_t size)
{
	uint64_t u = 0;

	for (uint32_t i = 0; i < size && i < 8; i++)
		u |= (uint64_t)p[i] << (8 * i);
	return u;
}

static int64_t extend(uint64_t u, uint32_t bits, bool is_signed)
{
	if (bits < 64 && is_signed && (u >> (bits - 1)) & 1)
		u |= ~0ULL << bits;
	else if (bits < 64)
		u &= (1ULL << bits) - 1;
	return (int64_t)u;
}

static void int_text(FILE *out, const struct dcc_meta_type *t, int64_t v)
{
	if ((t->flags & DCC_TYPE_F_CHAR) && v >= 0 && v < 128 && isprint((int)v))
		fprintf(out, "'%c'", (int)v);
	else if (t->flags & DCC_TYPE_F_SIGNED)
		fprintf(out, "%lld", (long long)v);
	else
		fprintf(out, "%llu", (unsigned long long)v);
}

static void enum_text(struct dcc_runtime *rt, FILE *out, const struct dcc_meta_type *t,
		      int64_t v)
{
	for (uint32_t i = 0; i < t->n; i++) {
		const struct dcc_meta_member *e = &rt->members[t->first + i];

		if (e->value == v) {
			fputs(rt_str(rt, e->name), out);
			return;
		}
	}
	int_text(out, t, v);
}

/* A scalar of type t whose value is v (integers, enums, pointers). */
static void scalar_text(struct dcc_runtime *rt, FILE *out, const struct dcc_meta_type *t,
			int64_t v)
{
	fprintf(out, "(%s)", rt_str(rt, t->name));
	if (t->kind == DCC_TYPE_ENUM)
		enum_text(rt, out, t, v);
	else if (t->kind == DCC_TYPE_PTR)
		fprintf(out, "0x%llx", (unsigned long long)v);
	else
		int_text(out, t, v);
}

static void float_text(struct dcc_runtime *rt, FILE *out, const struct dcc_meta_type *t,
		       const void *p)
{
	struct pf_spec sp = { .width = -1, .prec = -1, .conv = 'f' };
	struct rt_val v = { .kind = DCC_K_FLOAT, .size = t->size, .p = p };

	fprintf(out, "(%s)", rt_str(rt, t->name));
	rt_printf_float(out, &sp, &v);
}

static bool all_zero(const struct walk *w, uint64_t off, uint64_t size)
{
	for (uint64_t i = off; i < off + size && i < w->len; i++)
		if (w->data[i])
			return false;
	return true;
}

static void indent(struct walk *w, int depth)
{
	fprintf(w->out, "%*s", INDENT + depth, "");
}

/* "..." once, where the recorded bytes end. */
static bool cut(struct walk *w, uint64_t end, int depth)
{
	if (w->truncated)
		return true;
	if (end <= w->len)
		return false;
	indent(w, depth);
	fputs("...\n", w->out);
	w->truncated = true;
	return true;
}

/* Where the printsize option stops a struct: at the first member that starts
 * past the bytes it shows, "..." at that member's depth. DTrace writes it
 * before it closes the struct or union just shown, so a struct's closing
 * brace looks at the member that comes after it (next, at next_depth). */
struct next {
	uint64_t off;
	int depth;
};

static bool limited(struct walk *w, uint64_t off, int depth)
{
	if (w->truncated)
		return true;
	if (w->limit >= w->len || off < w->limit || off == UINT64_MAX) /* MAX: none after */
		return false;
	indent(w, depth);
	fputs("...\n", w->out);
	w->truncated = true;
	return true;
}

static void value(struct walk *w, uint32_t ti, uint64_t off, int depth, struct next after);

static void members(struct walk *w, const struct dcc_meta_type *t, uint64_t off, int depth,
		    struct next after)
{
	for (uint32_t i = 0; i < t->n; i++) {
		const struct dcc_meta_member *m = &w->rt->members[t->first + i];
		const struct dcc_meta_type *mt = type_at(w->rt, m->type);
		uint64_t moff = off + m->bit_off / 8;
		const char *name = rt_str(w->rt, m->name);
		struct next next = after;

		if (limited(w, moff, depth))
			return;
		if (i + 1 < t->n)
			next = (struct next){ off + w->rt->members[t->first + i + 1].bit_off / 8,
					      depth };

		if (m->bit_size) {
			uint64_t bit = off * 8 + m->bit_off, last = (bit + m->bit_size + 7) / 8;
			uint64_t u = 0;

			if (cut(w, last, depth))
				return;
			for (uint64_t b = 0; b < m->bit_size; b++)
				if (w->data[(bit + b) / 8] >> ((bit + b) % 8) & 1)
					u |= 1ULL << b;
			if (!u)
				continue;
			indent(w, depth);
			fprintf(w->out, "%s%s%s(%s)0x%llx,\n", *name ? "." : "", name,
				*name ? " = " : "", rt_str(w->rt, mt->name), (unsigned long long)u);
			continue;
		}
		if (cut(w, moff + mt->size, depth))
			return;
		/* enums show even when zero; an array shows when any byte of it
		 * is not zero (a char array too, though its text ends at once) */
		if (mt->kind != DCC_TYPE_ENUM && all_zero(w, moff, mt->size))
			continue;
		indent(w, depth);
		if (*name)
			fprintf(w->out, ".%s = ", name);
		value(w, m->type, moff, depth, next);
		fputs(",\n", w->out);
	}
}

static void elements(struct walk *w, const struct dcc_meta_type *t, uint64_t off, int depth)
{
	const struct dcc_meta_type *et = type_at(w->rt, t->ref);

	/* an array of bytes is text: it ends at its first NUL */
	bool text = et->kind == DCC_TYPE_INT && et->size == 1;

	if (et->size == 0)
		return;
	for (uint32_t i = 0; i < t->n; i++) {
		uint64_t eoff = off + (uint64_t)i * et->size;

		if (eoff >= w->limit && w->limit < w->len)
			return; /* the member after it says "..." */
		if (cut(w, eoff + et->size, depth))
			return;
		if (text && !w->data[eoff])
			return;
		if (et->kind != DCC_TYPE_ARRAY && all_zero(w, eoff, et->size))
			continue;
		indent(w, depth);
		value(w, t->ref, eoff, depth, (struct next){ UINT64_MAX, depth });
		fputs(",\n", w->out);
	}
}

/* The value of type ti at off in the recorded bytes, not indented, no newline after. */
static void value(struct walk *w, uint32_t ti, uint64_t off, int depth, struct next after)
{
	const struct dcc_meta_type *t = type_at(w->rt, ti);
	const unsigned char *p = w->data + off;

	switch (t->kind) {
	case DCC_TYPE_INT:
	case DCC_TYPE_ENUM:
	case DCC_TYPE_PTR:
		if (t->size > 8) {
			fprintf(w->out, "(%s)0x", rt_str(w->rt, t->name));
			for (uint32_t i = t->size; i-- > 0;)
				fprintf(w->out, "%02x", p[i]);
			return;
		}
		scalar_text(w->rt, w->out, t, extend(get_uint(p, t->size), 8 * t->size,
						     t->flags & DCC_TYPE_F_SIGNED));
		return;
	case DCC_TYPE_FLOAT:
		float_text(w->rt, w->out, t, p);
		return;
	case DCC_TYPE_STRING: /* a string member: its bytes up to the NUL */
		fprintf(w->out, "(%s)\"%.*s\"", rt_str(w->rt, t->name),
			(int)strnlen((const char *)p, t->size), (const char *)p);
		return;
	case DCC_TYPE_STRUCT:
	case DCC_TYPE_UNION:
	case DCC_TYPE_ARRAY: {
		bool arr = t->kind == DCC_TYPE_ARRAY;

		fprintf(w->out, "(%s) %c\n", rt_str(w->rt, t->name), arr ? '[' : '{');
		if (depth >= MAX_DEPTH)
			cut(w, UINT64_MAX, depth + 1);
		else if (arr)
			elements(w, t, off, depth + 1);
		else
			members(w, t, off, depth + 1, after);
		if (!arr)
			limited(w, after.off, after.depth);
		indent(w, depth);
		fputc(arr ? ']' : '}', w->out);
		return;
	}
	default:
		fprintf(w->out, "(%s)", rt_str(w->rt, t->name));
		return;
	}
}

void rt_print(struct dcc_runtime *rt, FILE *out, uint32_t type, const struct rt_val *v)
{
	const struct dcc_meta_type *t = type_at(rt, type);
	struct walk w = { .rt = rt, .out = out };

	switch (v->kind) {
	case DCC_K_INT:
		scalar_text(rt, out, t, v->i);
		break;
	case DCC_K_STRING:
		fprintf(out, "(%s)\"%.*s\"", rt_str(rt, t->name), (int)strnlen(v->p, v->size),
			v->p);
		break;
	case DCC_K_FLOAT:
		float_text(rt, out, t, v->p);
		break;
	default:
		w.data = (const unsigned char *)v->p;
		w.len = v->size;
		w.limit = rt->printsize && rt->printsize < v->size ? rt->printsize : v->size;
		value(&w, type, 0, 0, (struct next){ UINT64_MAX, 0 });
		break;
	}
	fputc('\n', out);
}

static int bad(char *why, size_t whylen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	if (why && whylen) {
		va_start(ap, fmt);
		vsnprintf(why, whylen, fmt, ap);
		va_end(ap);
	}
	return -EBADMSG;
}

/* Every index in range, every type after those it refers to, sizes that add up. */
int rt_types_check(const struct dcc_meta_header *h, const char *base, char *why,
		   size_t whylen)
{
	const struct dcc_meta_type *types = (const void *)(base + h->type_off);
	const struct dcc_meta_member *mbs = (const void *)(base + h->member_off);

	for (uint32_t i = 0; i < h->ntypes; i++) {
		const struct dcc_meta_type *t = &types[i];

		if (t->name >= h->str_size)
			return bad(why, whylen, "type %u: string offset %u out of range", i,
				   t->name);
		switch (t->kind) {
		case DCC_TYPE_INT:
		case DCC_TYPE_ENUM:
			if (t->size != 1 && t->size != 2 && t->size != 4 && t->size != 8 &&
			    !(t->size == 16 && t->kind == DCC_TYPE_INT))
				return bad(why, whylen, "type %u: integer of %u bytes", i, t->size);
			break;
		case DCC_TYPE_PTR:
			if (t->size != 8)
				return bad(why, whylen, "type %u: pointer of %u bytes", i, t->size);
			break;
		case DCC_TYPE_FLOAT:
			if (t->size != 4 && t->size != 8 && t->size != 16)
				return bad(why, whylen, "type %u: floating-point value of %u bytes",
					   i, t->size);
			break;
		case DCC_TYPE_ARRAY:
			if (t->ref >= i)
				return bad(why, whylen, "type %u: element type %u out of order", i,
					   t->ref);
			if ((uint64_t)types[t->ref].size * t->n != t->size)
				return bad(why, whylen,
					   "type %u: %u elements of %u bytes are not %u", i, t->n,
					   types[t->ref].size, t->size);
			break;
		case DCC_TYPE_STRING:
		case DCC_TYPE_STRUCT:
		case DCC_TYPE_UNION:
		case DCC_TYPE_OPAQUE:
			break;
		default:
			return bad(why, whylen, "type %u: unknown kind %u", i, t->kind);
		}
		if (t->kind != DCC_TYPE_STRUCT && t->kind != DCC_TYPE_UNION &&
		    t->kind != DCC_TYPE_ENUM)
			continue;
		if (t->first > h->nmembers || t->n > h->nmembers - t->first)
			return bad(why, whylen, "type %u: members out of range", i);
		for (uint32_t k = 0; k < t->n; k++) {
			const struct dcc_meta_member *m = &mbs[t->first + k];

			if (m->name >= h->str_size)
				return bad(why, whylen, "type %u member %u: string offset out of "
					   "range", i, k);
			if (t->kind == DCC_TYPE_ENUM)
				continue;
			if (m->type >= i)
				return bad(why, whylen, "type %u member %u: type %u out of order",
					   i, k, m->type);
			if (m->bit_size > 64)
				return bad(why, whylen, "type %u member %u: bit-field of %u bits",
					   i, k, m->bit_size);
		}
	}
	return 0;
}

/* print()'s action: its type in range and of its argument's kind. */
int rt_print_check(const struct dcc_meta_header *h, const char *base,
		   const struct dcc_meta_action *a, char *why, size_t whylen)
{
	const struct dcc_meta_type *types = (const void *)(base + h->type_off);
	const struct dcc_meta_field *f = (const void *)(base + h->arg_off);
	const struct dcc_meta_type *t;
	bool ok;

	if (a->nargs == 2) {
		/* print(p): the pointer, then what it points to */
		if (f[a->first_arg].kind != DCC_K_INT || f[a->first_arg].size != 8)
			return bad(why, whylen, "print: the pointer is not a 64-bit integer");
		f++;
	} else if (a->nargs != 1) {
		return bad(why, whylen, "print takes one or two arguments");
	}
	if (a->fmt >= h->ntypes)
		return bad(why, whylen, "print: type %u out of range", a->fmt);
	t = &types[a->fmt];
	f += a->first_arg;
	switch (f->kind) {
	case DCC_K_INT:
		ok = t->kind == DCC_TYPE_INT || t->kind == DCC_TYPE_ENUM || t->kind == DCC_TYPE_PTR;
		break;
	case DCC_K_STRING:
		ok = t->kind == DCC_TYPE_STRING;
		break;
	case DCC_K_FLOAT:
		ok = t->kind == DCC_TYPE_FLOAT && t->size == f->size;
		break;
	case DCC_K_BYTES:
		ok = (t->kind == DCC_TYPE_STRUCT || t->kind == DCC_TYPE_UNION ||
		      t->kind == DCC_TYPE_ARRAY) && f->size <= t->size;
		break;
	default:
		ok = false;
	}
	return ok ? 0 : bad(why, whylen, "print: a %s argument for a value of type kind %u",
			    f->kind == DCC_K_BYTES ? "bytes" : "scalar", t->kind);
}
