/*
 * The metadata section (headers/dcc/abi.h): tables of probes, attachments,
 * clause record layouts, actions and their arguments, aggregations and
 * options, plus a string table; laid out once at the end into one blob.
 */
#include <stdlib.h>
#include <string.h>

#include <dcc/abi.h>
#include "cg_meta.h"
#include "sema.h"

#define VEC(T) struct { T *v; uint32_t n, cap; }
#define PUSH(vec) (((vec).n == (vec).cap ? ((vec).cap = (vec).cap ? 2 * (vec).cap : 16, \
	(vec).v = realloc((vec).v, (vec).cap * sizeof(*(vec).v))) : 0), \
	memset(&(vec).v[(vec).n], 0, sizeof(*(vec).v)), &(vec).v[(vec).n++])

struct cg_meta {
	VEC(char) strs;
	VEC(struct dcc_meta_probe) probes;
	VEC(struct dcc_meta_attach) attach;
	VEC(struct dcc_meta_clause) clauses;
	VEC(struct dcc_meta_action) actions;
	VEC(struct dcc_meta_field) args;
	VEC(struct dcc_meta_agg) aggs;
	VEC(struct dcc_meta_field) keys;
	VEC(struct dcc_meta_option) opts;
	VEC(struct dcc_meta_type) types;
	VEC(const void *) type_keys; /* what each type was made from, to reuse it */
	VEC(struct dcc_meta_member) members;
	/* the offsets of the strings in strs, open addressing by their hash:
	 * a script on every syscall names ~360 probes, each four strings */
	uint32_t *str_slots;
	uint32_t str_cap, str_count;
	uint32_t enablings;
	uint32_t build, btf_size; /* the header's */
	uint64_t btf_hash;
};

struct cg_meta *cg_meta_new(void)
{
	struct cg_meta *m = calloc(1, sizeof(*m));
	*PUSH(m->strs) = 0; /* offset 0 is "" */
	return m;
}

void cg_meta_free(struct cg_meta *m)
{
	if (!m)
		return;
	free(m->strs.v);
	free(m->probes.v);
	free(m->attach.v);
	free(m->clauses.v);
	free(m->actions.v);
	free(m->args.v);
	free(m->aggs.v);
	free(m->keys.v);
	free(m->opts.v);
	free(m->types.v);
	free(m->type_keys.v);
	free(m->members.v);
	free(m->str_slots);
	free(m);
}

static uint32_t str_hash(const char *s)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* The slot holding s's offset, or the empty slot where it belongs. */
static uint32_t *str_slot(struct cg_meta *m, const char *s, uint32_t h)
{
	for (uint32_t i = h & (m->str_cap - 1);; i = (i + 1) & (m->str_cap - 1))
		if (!m->str_slots[i] || !strcmp(m->strs.v + m->str_slots[i], s))
			return &m->str_slots[i];
}

static void str_grow(struct cg_meta *m)
{
	uint32_t *old = m->str_slots, ocap = m->str_cap;
	m->str_cap = ocap ? 2 * ocap : 256;
	m->str_slots = calloc(m->str_cap, sizeof(*m->str_slots));
	for (uint32_t i = 0; i < ocap; i++)
		if (old[i]) {
			const char *t = m->strs.v + old[i];
			*str_slot(m, t, str_hash(t)) = old[i];
		}
	free(old);
}

/* An identical earlier string is reused (probe names repeat a lot): the
 * offset of its first copy. */
uint32_t cg_meta_str(struct cg_meta *m, const char *s)
{
	if (!s || !*s)
		return 0;
	if (2 * (m->str_count + 1) > m->str_cap)
		str_grow(m);
	uint32_t h = str_hash(s);
	uint32_t *slot = str_slot(m, s, h);
	if (*slot)
		return *slot;
	size_t len = strlen(s);
	uint32_t off = m->strs.n;
	for (size_t i = 0; i <= len; i++)
		*PUSH(m->strs) = s[i];
	*slot = off;
	m->str_count++;
	return off;
}

void cg_meta_probe(struct cg_meta *m, const struct probe *p)
{
	struct dcc_meta_probe *mp = PUSH(m->probes);
	mp->id = p->id;
	mp->prov = cg_meta_str(m, p->prov);
	mp->mod = cg_meta_str(m, p->mod);
	mp->func = cg_meta_str(m, p->func);
	mp->name = cg_meta_str(m, p->name);
}

void cg_meta_attach(struct cg_meta *m, const char *prog, uint32_t kind, const char *target,
		    uint32_t flags, uint64_t param)
{
	struct dcc_meta_attach *a = PUSH(m->attach);
	a->prog = cg_meta_str(m, prog);
	a->kind = kind;
	a->target = cg_meta_str(m, target);
	a->flags = flags;
	a->param = param;
}

uint32_t cg_meta_clause(struct cg_meta *m, uint32_t size, const char *loc)
{
	struct dcc_meta_clause *c = PUSH(m->clauses);
	c->epid = m->clauses.n;
	c->size = size;
	c->first_action = m->actions.n;
	c->loc = cg_meta_str(m, loc);
	return c->epid;
}

void cg_meta_action(struct cg_meta *m, uint32_t kind, const char *fmt)
{
	struct dcc_meta_action *a = PUSH(m->actions);
	a->kind = kind;
	a->fmt = fmt ? cg_meta_str(m, fmt) : 0;
	a->first_arg = m->args.n;
	m->clauses.v[m->clauses.n - 1].nactions++;
}

void cg_meta_arg(struct cg_meta *m, uint32_t offset, uint32_t size, uint16_t kind, bool is_signed,
		 const char *type)
{
	struct dcc_meta_field *f = PUSH(m->args);
	f->offset = offset;
	f->size = size;
	f->kind = kind;
	f->is_signed = is_signed;
	f->type = cg_meta_str(m, type);
	m->actions.v[m->actions.n - 1].nargs++;
}

void cg_meta_agg(struct cg_meta *m, const struct agg *g, const char *map, uint32_t key_size,
		 uint32_t val_size, const unsigned *strcaps)
{
	struct dcc_meta_agg *a = PUSH(m->aggs);
	a->id = g->id;
	a->name = cg_meta_str(m, g->name);
	a->map = cg_meta_str(m, map);
	a->func = g->func;
	a->first_key = m->keys.n;
	a->nkeys = g->nkeys;
	a->key_size = key_size;
	a->val_size = val_size;
	memcpy(a->param, g->param, sizeof(a->param));
	uint32_t off = 0;
	for (int i = 0; i < g->nkeys; i++) {
		struct dcc_meta_field *f = PUSH(m->keys);
		const struct type *t = g->keys[i];
		bool str = t->kind == T_STRING, sym = type_is_symbolic(t);
		f->offset = off;
		f->size = str ? strcaps[i] : t->size;
		f->kind = str ? DCC_K_STRING : sym ? (uint16_t)t->dkind : DCC_K_INT;
		f->is_signed = t->is_signed;
		f->type = cg_meta_str(m, t->name);
		off += str || sym ? strcaps[i] : 8;
	}
}

void cg_meta_option(struct cg_meta *m, const char *name, const char *value)
{
	struct dcc_meta_option *o = PUSH(m->opts);
	o->name = cg_meta_str(m, name);
	o->value = value ? cg_meta_str(m, value) : 0;
}

/* print()'s type table: the index of the type made from key, or -1. */
int64_t cg_meta_type_find(struct cg_meta *m, const void *key)
{
	for (uint32_t i = 0; i < m->type_keys.n; i++)
		if (m->type_keys.v[i] == key)
			return i;
	return -1;
}

uint32_t cg_meta_type_add(struct cg_meta *m, const void *key, const struct dcc_meta_type *t)
{
	*PUSH(m->types) = *t;
	*PUSH(m->type_keys) = key;
	return m->types.n - 1;
}

/* Members are added together, right before their type; returns the first's index. */
uint32_t cg_meta_member_add(struct cg_meta *m, const struct dcc_meta_member *mb)
{
	*PUSH(m->members) = *mb;
	return m->members.n - 1;
}

uint32_t cg_meta_ntypes(struct cg_meta *m)
{
	return m->types.n;
}

uint32_t cg_meta_nmembers(struct cg_meta *m)
{
	return m->members.n;
}

/* print(): the last action's fmt is its value's type index. */
void cg_meta_action_type(struct cg_meta *m, uint32_t type)
{
	m->actions.v[m->actions.n - 1].fmt = type;
}

static uint32_t place(char *blob, uint32_t *off, const void *src, size_t size)
{
	uint32_t at = *off;
	if (size)
		memcpy(blob + at, src, size);
	*off += (uint32_t)((size + 7) & ~(size_t)7);
	return at;
}

void cg_meta_enablings(struct cg_meta *m, uint32_t n)
{
	m->enablings = n;
}

void cg_meta_build(struct cg_meta *m, const char *build, uint32_t btf_size, uint64_t btf_hash)
{
	m->build = cg_meta_str(m, build);
	m->btf_size = btf_size;
	m->btf_hash = btf_hash;
}

void *cg_meta_finish(struct cg_meta *m, const char *script, uint32_t flags, size_t *size)
{
	uint32_t script_str = cg_meta_str(m, script);
	size_t total = sizeof(struct dcc_meta_header) + 8 * 11 +
		m->types.n * sizeof(*m->types.v) + m->members.n * sizeof(*m->members.v) +
		m->probes.n * sizeof(*m->probes.v) + m->attach.n * sizeof(*m->attach.v) +
		m->clauses.n * sizeof(*m->clauses.v) + m->actions.n * sizeof(*m->actions.v) +
		m->args.n * sizeof(*m->args.v) + m->aggs.n * sizeof(*m->aggs.v) +
		m->keys.n * sizeof(*m->keys.v) + m->opts.n * sizeof(*m->opts.v) + m->strs.n;
	char *blob = calloc(1, total);
	struct dcc_meta_header *h = (void *)blob;
	uint32_t off = (sizeof(*h) + 7) & ~7u;
	memcpy(h->magic, DCC_META_MAGIC, 8);
	h->version = DCC_META_VERSION;
	h->probe_off = place(blob, &off, m->probes.v, m->probes.n * sizeof(*m->probes.v));
	h->nprobes = m->probes.n;
	h->nenablings = m->enablings;
	h->attach_off = place(blob, &off, m->attach.v, m->attach.n * sizeof(*m->attach.v));
	h->nattach = m->attach.n;
	h->clause_off = place(blob, &off, m->clauses.v, m->clauses.n * sizeof(*m->clauses.v));
	h->nclauses = m->clauses.n;
	h->action_off = place(blob, &off, m->actions.v, m->actions.n * sizeof(*m->actions.v));
	h->nactions = m->actions.n;
	h->arg_off = place(blob, &off, m->args.v, m->args.n * sizeof(*m->args.v));
	h->nargs = m->args.n;
	h->agg_off = place(blob, &off, m->aggs.v, m->aggs.n * sizeof(*m->aggs.v));
	h->naggs = m->aggs.n;
	h->key_off = place(blob, &off, m->keys.v, m->keys.n * sizeof(*m->keys.v));
	h->nkeys = m->keys.n;
	h->opt_off = place(blob, &off, m->opts.v, m->opts.n * sizeof(*m->opts.v));
	h->nopts = m->opts.n;
	h->type_off = place(blob, &off, m->types.v, m->types.n * sizeof(*m->types.v));
	h->ntypes = m->types.n;
	h->member_off = place(blob, &off, m->members.v, m->members.n * sizeof(*m->members.v));
	h->nmembers = m->members.n;
	h->str_size = m->strs.n;
	h->str_off = place(blob, &off, m->strs.v, m->strs.n);
	h->script = script_str;
	h->flags = flags;
	h->build = m->build;
	h->btf_size = m->btf_size;
	h->btf_hash = m->btf_hash;
	h->size = off;
	*size = off;
	return blob;
}
