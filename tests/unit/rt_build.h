/*
 * Test helpers for the runtime's unit tests: build a metadata blob laid out
 * per abi.h (header, 8-byte aligned tables, string table), records for its
 * clauses, and a runtime whose output and messages go to memory.
 */
#ifndef DCC_TEST_RT_BUILD_H
#define DCC_TEST_RT_BUILD_H

#include <errno.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include <dcc/runtime.h>

#define MB_MAX 64

struct mb {
	char strs[8192];
	uint32_t nstr;
	struct dcc_meta_probe probes[MB_MAX];
	uint32_t nprobes;
	struct dcc_meta_clause clauses[MB_MAX];
	uint32_t nclauses;
	struct dcc_meta_action actions[MB_MAX];
	uint32_t nactions;
	struct dcc_meta_field args[MB_MAX * 2];
	uint32_t nargs;
	struct dcc_meta_agg aggs[MB_MAX];
	uint32_t naggs;
	struct dcc_meta_field keys[MB_MAX];
	uint32_t nkeys;
	struct dcc_meta_option opts[MB_MAX];
	uint32_t nopts;
	struct dcc_meta_type types[MB_MAX];
	uint32_t ntypes;
	struct dcc_meta_member members[MB_MAX * 2];
	uint32_t nmembers;
	uint32_t script;
	uint32_t flags; /* DCC_META_F_* */
};

static inline void mb_init(struct mb *b)
{
	memset(b, 0, sizeof(*b));
	b->nstr = 1; /* "" */
}

static inline uint32_t mb_str(struct mb *b, const char *s)
{
	uint32_t off = b->nstr;

	if (!*s)
		return 0;
	memcpy(b->strs + off, s, strlen(s) + 1);
	b->nstr += strlen(s) + 1;
	return off;
}

static inline void mb_probe(struct mb *b, uint32_t id, const char *prov, const char *mod,
			    const char *func, const char *name)
{
	b->probes[b->nprobes++] = (struct dcc_meta_probe){ id, mb_str(b, prov), mb_str(b, mod),
							   mb_str(b, func), mb_str(b, name) };
}

/* A new clause; its record starts as the bare header. Returns its epid. */
static inline uint32_t mb_clause(struct mb *b)
{
	struct dcc_meta_clause *c = &b->clauses[b->nclauses];

	c->epid = ++b->nclauses;
	c->size = sizeof(struct dcc_rec_hdr);
	c->first_action = b->nactions;
	c->loc = mb_str(b, "t.d:1:1");
	return c->epid;
}

static inline void mb_action(struct mb *b, uint32_t kind, const char *fmt)
{
	struct dcc_meta_action *a = &b->actions[b->nactions++];

	a->kind = kind;
	a->fmt = fmt ? mb_str(b, fmt) : 0;
	a->first_arg = b->nargs;
	b->clauses[b->nclauses - 1].nactions++;
}

static inline uint32_t mb_field(struct mb *b, uint32_t kind, uint32_t size, int is_signed,
				const char *type)
{
	struct dcc_meta_clause *c = &b->clauses[b->nclauses - 1];
	struct dcc_meta_field *f = &b->args[b->nargs++];
	uint32_t slot = kind == DCC_K_INT ? 8 : (size + 7) & ~7u;

	f->offset = c->size;
	f->size = size;
	f->kind = kind;
	f->is_signed = is_signed;
	f->type = mb_str(b, type);
	c->size += slot;
	b->actions[b->nactions - 1].nargs++;
	return f->offset;
}

static inline uint32_t mb_int(struct mb *b, uint32_t size, int is_signed)
{
	return mb_field(b, DCC_K_INT, size, is_signed, is_signed ? "int" : "unsigned");
}

static inline uint32_t mb_string(struct mb *b, uint32_t size)
{
	return mb_field(b, DCC_K_STRING, size, 0, "string");
}

static inline void mb_aggarg(struct mb *b, uint32_t id)
{
	struct dcc_meta_field *f = &b->args[b->nargs++];

	f->offset = id;
	f->kind = DCC_K_AGG;
	b->actions[b->nactions - 1].nargs++;
}

/* A new aggregation in map `map`; keys are added with mb_key. */
static inline uint32_t mb_agg(struct mb *b, const char *name, const char *map, uint32_t func,
			      uint32_t val_size)
{
	struct dcc_meta_agg *a = &b->aggs[b->naggs];

	a->id = b->naggs++;
	a->name = mb_str(b, name);
	a->map = mb_str(b, map);
	a->func = func;
	a->first_key = b->nkeys;
	a->key_size = 4;
	a->val_size = val_size;
	return a->id;
}

/* Add a key element to the last aggregation; returns its offset in the key. */
static inline uint32_t mb_key(struct mb *b, uint32_t kind, uint32_t size, int is_signed)
{
	struct dcc_meta_agg *a = &b->aggs[b->naggs - 1];
	struct dcc_meta_field *f = &b->keys[b->nkeys++];
	uint32_t off = a->nkeys ? a->key_size : 0;

	f->offset = off;
	f->size = size;
	f->kind = kind;
	f->is_signed = is_signed;
	f->type = mb_str(b, kind == DCC_K_INT ? "int" : "string");
	a->key_size = off + (kind == DCC_K_INT ? 8 : (size + 7) & ~7u);
	a->nkeys++;
	return off;
}

static inline void mb_option(struct mb *b, const char *name, const char *value)
{
	b->opts[b->nopts++] = (struct dcc_meta_option){ mb_str(b, name),
							value ? mb_str(b, value) : 0 };
}

/* print()'s type table: a type (its members, if any, added right after
 * with mb_member, so first is the next member's index) */
static inline uint32_t mb_type(struct mb *b, uint16_t kind, uint16_t flags, uint32_t size,
			       const char *name, uint32_t ref, uint32_t n)
{
	struct dcc_meta_type *t = &b->types[b->ntypes];

	t->kind = kind;
	t->flags = flags;
	t->size = size;
	t->name = mb_str(b, name);
	t->ref = ref;
	t->first = b->nmembers;
	t->n = n;
	return b->ntypes++;
}

static inline void mb_member(struct mb *b, const char *name, uint32_t type, uint32_t bit_off,
			     uint32_t bit_size, int64_t value)
{
	b->members[b->nmembers++] = (struct dcc_meta_member){ mb_str(b, name), type, bit_off,
							      bit_size, value };
}

static inline size_t mb_align(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* Lay the blob out: header, tables, strings. malloc'd. */
static inline void *mb_blob(struct mb *b, size_t *size)
{
	struct dcc_meta_header h = { .magic = DCC_META_MAGIC, .version = DCC_META_VERSION };
	size_t off = mb_align(sizeof(h));
	char *blob;

#define PLACE(o, n, arr, cnt)                            \
	do {                                             \
		h.o = off;                               \
		h.n = b->cnt;                            \
		off = mb_align(off + sizeof(b->arr[0]) * b->cnt); \
	} while (0)
	PLACE(probe_off, nprobes, probes, nprobes);
	h.attach_off = off;
	PLACE(clause_off, nclauses, clauses, nclauses);
	PLACE(action_off, nactions, actions, nactions);
	PLACE(arg_off, nargs, args, nargs);
	PLACE(agg_off, naggs, aggs, naggs);
	PLACE(key_off, nkeys, keys, nkeys);
	PLACE(opt_off, nopts, opts, nopts);
	PLACE(type_off, ntypes, types, ntypes);
	PLACE(member_off, nmembers, members, nmembers);
#undef PLACE
	h.str_off = off;
	h.str_size = b->nstr;
	off += b->nstr;
	h.size = off;
	h.script = b->script;
	h.flags = b->flags;
	blob = calloc(1, mb_align(off));
	memcpy(blob, &h, sizeof(h));
	memcpy(blob + h.probe_off, b->probes, sizeof(b->probes[0]) * b->nprobes);
	memcpy(blob + h.clause_off, b->clauses, sizeof(b->clauses[0]) * b->nclauses);
	memcpy(blob + h.action_off, b->actions, sizeof(b->actions[0]) * b->nactions);
	memcpy(blob + h.arg_off, b->args, sizeof(b->args[0]) * b->nargs);
	memcpy(blob + h.agg_off, b->aggs, sizeof(b->aggs[0]) * b->naggs);
	memcpy(blob + h.key_off, b->keys, sizeof(b->keys[0]) * b->nkeys);
	memcpy(blob + h.opt_off, b->opts, sizeof(b->opts[0]) * b->nopts);
	memcpy(blob + h.type_off, b->types, sizeof(b->types[0]) * b->ntypes);
	memcpy(blob + h.member_off, b->members, sizeof(b->members[0]) * b->nmembers);
	memcpy(blob + h.str_off, b->strs, b->nstr);
	*size = off;
	return blob;
}

/* A record for clause epid, zero-filled to the clause's size. */
struct rec {
	char buf[4096];
	size_t size;
};

static inline void rec_init(struct rec *r, const struct mb *b, uint32_t epid, uint32_t probe,
			    uint32_t cpu)
{
	struct dcc_rec_hdr h = { epid, probe, cpu, 0 };

	memset(r, 0, sizeof(*r));
	memcpy(r->buf, &h, sizeof(h));
	r->size = b->clauses[epid - 1].size;
}

static inline void rec_int(struct rec *r, uint32_t off, int64_t v)
{
	memcpy(r->buf + off, &v, 8);
}

static inline void rec_str(struct rec *r, uint32_t off, const char *s)
{
	memcpy(r->buf + off, s, strlen(s));
}

/* A float value's bytes as a record holds them for a D type of size 4, 8
 * or 16 (long double: its 80 bits, the padding left zero). */
static inline void rec_float(struct rec *r, uint32_t off, uint32_t size, long double v)
{
	float f = (float)v;
	double d = (double)v;

	if (size == 4)
		memcpy(r->buf + off, &f, 4);
	else if (size == 8)
		memcpy(r->buf + off, &d, 8);
	else
		memcpy(r->buf + off, &v, 10);
}

/* Text made with printf, in one of eight rotating buffers. */
static inline char *fmt(const char *f, ...)
{
	static char buf[8][2048];
	static int n;
	char *b = buf[n++ % 8];
	va_list ap;

	va_start(ap, f);
	vsnprintf(b, 2048, f, ap);
	va_end(ap);
	return b;
}

/* A runtime writing to memory streams. */
struct rtt {
	struct dcc_runtime *rt;
	void *blob;
	FILE *out, *err;
	char *obuf, *ebuf;
	size_t olen, elen;
};

static inline int rtt_open(struct rtt *t, struct mb *b, bool quiet, const char *const *xopts,
			   int nx)
{
	size_t size;
	struct dcc_runtime_opts o = { .sz = sizeof(o), .progname = "dtrun", .quiet = quiet,
				      .xopts = xopts, .nxopts = nx };

	memset(t, 0, sizeof(*t));
	t->blob = mb_blob(b, &size);
	t->out = open_memstream(&t->obuf, &t->olen);
	t->err = open_memstream(&t->ebuf, &t->elen);
	o.out = t->out;
	o.err = t->err;
	t->rt = dcc_runtime__new(t->blob, size, &o);
	return t->rt ? 0 : -errno;
}

/* Output so far (flushed; stays owned by t). */
static inline const char *rtt_out(struct rtt *t)
{
	fflush(t->out);
	return t->obuf ? t->obuf : "";
}

static inline const char *rtt_err(struct rtt *t)
{
	fflush(t->err);
	return t->ebuf ? t->ebuf : "";
}

static inline void rtt_close(struct rtt *t)
{
	dcc_runtime__free(t->rt);
	fclose(t->out);
	fclose(t->err);
	free(t->obuf);
	free(t->ebuf);
	free(t->blob);
}

#endif
