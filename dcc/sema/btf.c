/*
 * BTF -> struct type, lazily: a struct or union is made without members and
 * completed when sema first looks into it, so reading task_struct doesn't
 * pull in the whole kernel's type graph.
 */
#include "btf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

#include "arena.h"
#include "stage.h"

struct sema_btf {
	struct btf *btf;
	struct arena *ar;
	const char *path;
	struct type **cache;
	unsigned n;
	/* the ids cache[] holds a type for, so a rebind clears those alone
	 * (the whole cache is a megabyte for the kernel's BTF) */
	unsigned *set, nset, capset;
	/* (kind, name) -> the first id of that kind and name, made after a
	 * few lookups: libbpf's is a scan of every type (~150,000), which a
	 * compile asking about many names (the parser asks about each
	 * identifier that may start a cast) pays each time */
	unsigned nfinds;
	uint32_t *index; /* ids, 0 for an empty slot; a power of two long */
	size_t index_mask;
};

struct sema_btf *sema_btf_open(struct arena *ar, const char *path, char *why, size_t whylen)
{
	const char *p = path ? path : "/sys/kernel/btf/vmlinux";
	enum stage was = stage_enter(STAGE_BTF);
	struct btf *btf = btf__parse(p, NULL);
	stage_enter(was);
	if (!btf) {
		snprintf(why, whylen, "cannot read BTF from %s: %s", p, strerror(errno));
		return NULL;
	}
	struct sema_btf *b = calloc(1, sizeof(*b));
	b->btf = btf;
	b->ar = ar;
	b->path = p;
	b->n = btf__type_cnt(btf);
	b->cache = calloc(b->n, sizeof(*b->cache));
	return b;
}

void sema_btf_rebind(struct sema_btf *b, struct arena *ar)
{
	b->ar = ar;
	if (b->nset > b->capset) /* a note of an id was lost: all of it */
		memset(b->cache, 0, b->n * sizeof(*b->cache));
	else
		for (unsigned i = 0; i < b->nset; i++)
			b->cache[b->set[i]] = NULL;
	b->nset = 0;
}

/* cache[id] = t, noting id for sema_btf_rebind */
static void cache_set(struct sema_btf *b, unsigned id, struct type *t)
{
	if (!b->cache[id]) {
		if (b->nset == b->capset) {
			unsigned cap = b->capset ? 2 * b->capset : 256;
			unsigned *v = realloc(b->set, cap * sizeof(*v));
			if (v) {
				b->set = v;
				b->capset = cap;
			}
		}
		if (b->nset < b->capset)
			b->set[b->nset] = id;
		b->nset++; /* past capset: rebind clears the whole cache */
	}
	b->cache[id] = t;
}

void sema_btf_close(struct sema_btf *b)
{
	if (!b)
		return;
	btf__free(b->btf);
	free(b->cache);
	free(b->set);
	free(b->index);
	free(b);
}

void sema_btf_identity(const struct sema_btf *b, uint32_t *size, uint64_t *hash)
{
	const unsigned char *p = btf__raw_data(b->btf, size);
	uint64_t h = 14695981039346656037ull;
	for (uint32_t i = 0; p && i < *size; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	*hash = h;
}

const char *sema_btf_path(const struct sema_btf *b)
{
	return b->path;
}

static size_t name_hash(const char *name, unsigned kind)
{
	uint64_t h = 14695981039346656037ull ^ kind;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 1099511628211ull;
	return (size_t)(h ^ h >> 29);
}

/* Every type in the index, the first of each kind and name kept: what
 * btf__find_by_name_kind's scan from id 1 finds. */
static void make_index(struct sema_btf *b)
{
	size_t len = 1024;
	while (len < 2 * (size_t)b->n)
		len *= 2;
	if (!(b->index = calloc(len, sizeof(*b->index))))
		return;
	b->index_mask = len - 1;
	for (unsigned id = 1; id < b->n; id++) {
		const struct btf_type *t = btf__type_by_id(b->btf, id);
		const char *name = btf__name_by_offset(b->btf, t->name_off);
		if (!name)
			continue;
		size_t i = name_hash(name, btf_kind(t)) & b->index_mask;
		for (;; i = (i + 1) & b->index_mask) {
			if (!b->index[i]) {
				b->index[i] = id;
				break;
			}
			const struct btf_type *o = btf__type_by_id(b->btf, b->index[i]);
			if (btf_kind(o) == btf_kind(t) &&
			    !strcmp(btf__name_by_offset(b->btf, o->name_off), name))
				break; /* an earlier id of this kind and name */
		}
	}
}

static int index_find(struct sema_btf *b, const char *name, unsigned kind)
{
	/* as libbpf: "void" is id 0 of any kind */
	if (!strcmp(name, "void"))
		return 0;
	for (size_t i = name_hash(name, kind) & b->index_mask; b->index[i];
	     i = (i + 1) & b->index_mask) {
		const struct btf_type *t = btf__type_by_id(b->btf, b->index[i]);
		if (btf_kind(t) == kind && !strcmp(btf__name_by_offset(b->btf, t->name_off), name))
			return (int)b->index[i];
	}
	return -ENOENT;
}

/* A named type's id (negative when BTF has none), timed as BTF's. The
 * first lookups scan, as a compile with a few costs least that way; from
 * the ninth on, through the index (made once, ~10 scans' worth). */
static int find(struct sema_btf *b, const char *name, int kind)
{
	enum stage was = stage_enter(STAGE_BTF);
	int id;
	if (!b->index && ++b->nfinds > 8)
		make_index(b);
	if (b->index)
		id = index_find(b, name, (unsigned)kind);
	else
		id = btf__find_by_name_kind(b->btf, name, (__u32)kind);
	stage_enter(was);
	return id;
}

static struct type *int_type(unsigned size, bool is_signed, const char *name)
{
	if (name && !strcmp(name, "char"))
		return &type_char;
	switch (size) {
	case 1: return is_signed ? &type_schar : &type_uchar;
	case 2: return is_signed ? &type_short : &type_ushort;
	case 4: return is_signed ? &type_int : &type_uint;
	default: return is_signed ? &type_long : &type_ulong;
	}
}

static struct type *convert(struct sema_btf *b, unsigned id);

/* a typedef of a scalar or a float keeps its name for messages */
static struct type *alias(struct sema_btf *b, struct type *t, const char *name)
{
	if (t->kind != T_INT && t->kind != T_PTR && t->kind != T_FLOAT)
		return t;
	struct type *a = arena_new(b->ar, struct type);
	*a = *t;
	a->name = arena_strdup(b->ar, name);
	a->ptr_to = NULL;
	return a;
}

/* A kernel enum's names and values, for print(). */
static void enumerators(struct sema_btf *b, const struct btf_type *bt, struct type *t)
{
	int n = btf_vlen(bt);
	t->enum_names = arena_alloc(b->ar, sizeof(*t->enum_names) * (size_t)(n ? n : 1));
	t->enum_vals = arena_alloc(b->ar, sizeof(*t->enum_vals) * (size_t)(n ? n : 1));
	for (int i = 0; i < n; i++) {
		const char *en;
		if (btf_kind(bt) == BTF_KIND_ENUM) {
			en = btf__name_by_offset(b->btf, btf_enum(bt)[i].name_off);
			t->enum_vals[i] = btf_enum(bt)[i].val;
		} else {
			en = btf__name_by_offset(b->btf, btf_enum64(bt)[i].name_off);
			t->enum_vals[i] = (int64_t)btf_enum64_value(&btf_enum64(bt)[i]);
		}
		t->enum_names[i] = arena_strdup(b->ar, en ? en : "");
	}
	t->nenums = n;
}

static struct type *convert(struct sema_btf *b, unsigned id)
{
	if (id == 0)
		return &type_void;
	if (id >= b->n)
		return &type_void;
	if (b->cache[id])
		return b->cache[id];
	const struct btf_type *bt = btf__type_by_id(b->btf, id);
	const char *name = btf__name_by_offset(b->btf, bt->name_off);
	struct type *t = NULL;
	switch (btf_kind(bt)) {
	case BTF_KIND_INT: {
		__u32 enc = btf_int_encoding(bt);
		t = int_type(bt->size, enc & BTF_INT_SIGNED, name);
		break;
	}
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64: {
		/* an int that CO-RE must describe as an enum of the same name */
		t = arena_new(b->ar, struct type);
		*t = *int_type(bt->size, !(btf_kflag(bt) == 0 && 0), NULL);
		t->ptr_to = NULL;
		t->enum_tag = arena_strdup(b->ar, name);
		t->name = *name ? arena_printf(b->ar, "enum %s", name) : "enum";
		enumerators(b, bt, t);
		break;
	}
	case BTF_KIND_PTR:
		cache_set(b, id, &type_void); /* a self-referencing typedef chain stops here */
		t = type_ptr(b->ar, convert(b, bt->type));
		break;
	case BTF_KIND_ARRAY: {
		const struct btf_array *arr = btf_array(bt);
		t = type_array(b->ar, convert(b, arr->type), arr->nelems);
		break;
	}
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_FWD: {
		bool is_union = btf_kind(bt) == BTF_KIND_UNION ||
				(btf_kind(bt) == BTF_KIND_FWD && btf_kflag(bt));
		if (btf_kind(bt) == BTF_KIND_FWD && *name) {
			int full = find(b, name, is_union ? BTF_KIND_UNION : BTF_KIND_STRUCT);
			if (full > 0) {
				t = convert(b, (unsigned)full);
				break;
			}
		}
		t = arena_new(b->ar, struct type);
		t->kind = is_union ? T_UNION : T_STRUCT;
		t->size = btf_kind(bt) == BTF_KIND_FWD ? 0 : bt->size;
		t->tag = *name ? arena_strdup(b->ar, name) : NULL;
		t->name = arena_printf(b->ar, "%s %s", is_union ? "union" : "struct",
				       *name ? name : "<anonymous>");
		t->btf_id = btf_kind(bt) == BTF_KIND_FWD ? 0 : (int)id;
		break;
	}
	case BTF_KIND_TYPEDEF:
		cache_set(b, id, &type_void);
		t = alias(b, convert(b, bt->type), name);
		break;
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		cache_set(b, id, &type_void);
		t = convert(b, bt->type);
		break;
	case BTF_KIND_FUNC_PROTO:
	case BTF_KIND_FUNC: {
		t = arena_new(b->ar, struct type);
		t->kind = T_FUNC;
		t->name = "function";
		break;
	}
	case BTF_KIND_FLOAT:
		/* float, double, long double: by size, as C lays them out */
		if ((t = type_float_of(bt->size)))
			break;
		__attribute__((fallthrough)); /* _Float16 and the like: opaque */
	default: {
		t = arena_new(b->ar, struct type);
		t->kind = T_FUNC; /* nothing D can compute with */
		t->size = bt->size;
		t->name = *name ? arena_strdup(b->ar, name) : "?";
		break;
	}
	}
	cache_set(b, id, t);
	return t;
}

int sema_btf_complete(struct sema_btf *b, struct type *t)
{
	if (t->complete)
		return 0;
	if (!t->btf_id)
		return -1;
	const struct btf_type *bt = btf__type_by_id(b->btf, (unsigned)t->btf_id);
	int n = btf_vlen(bt);
	const struct btf_member *m = btf_members(bt);
	t->members = arena_alloc(b->ar, sizeof(*t->members) * (size_t)(n ? n : 1));
	for (int i = 0; i < n; i++) {
		const char *mn = btf__name_by_offset(b->btf, m[i].name_off);
		t->members[i].name = mn && *mn ? arena_strdup(b->ar, mn) : NULL;
		t->members[i].type = convert(b, m[i].type);
		t->members[i].bit_off = btf_member_bit_offset(bt, (unsigned)i);
		t->members[i].bit_size = btf_member_bitfield_size(bt, (unsigned)i);
	}
	t->nmembers = n;
	t->complete = true;
	return 0;
}

struct type *sema_btf_struct(struct sema_btf *b, const char *tag, bool is_union)
{
	int id = find(b, tag, is_union ? BTF_KIND_UNION : BTF_KIND_STRUCT);
	return id > 0 ? convert(b, (unsigned)id) : NULL;
}

struct type *sema_btf_typedef(struct sema_btf *b, const char *name)
{
	int id = find(b, name, BTF_KIND_TYPEDEF);
	return id > 0 ? convert(b, (unsigned)id) : NULL;
}

static int proto_args(struct sema_btf *b, const struct btf_type *proto, int skip,
		      struct type **types, int max, struct type **ret)
{
	if (!proto || !btf_is_func_proto(proto))
		return -1;
	int n = btf_vlen(proto);
	const struct btf_param *p = btf_params(proto);
	int k = 0;
	for (int i = skip; i < n && k < max; i++)
		types[k++] = convert(b, p[i].type);
	if (ret)
		*ret = convert(b, proto->type);
	return k;
}

/* typedefs and modifiers down to the type they name */
static const struct btf_type *skip_mods(struct sema_btf *b, unsigned id)
{
	const struct btf_type *t = btf__type_by_id(b->btf, id);
	while (t && (btf_is_typedef(t) || btf_is_mod(t)))
		t = btf__type_by_id(b->btf, t->type);
	return t;
}

int sema_btf_func_args(struct sema_btf *b, const char *func, struct type **types, int max,
		   struct type **ret)
{
	int id = find(b, func, BTF_KIND_FUNC);
	if (id <= 0)
		return -1;
	const struct btf_type *f = btf__type_by_id(b->btf, (unsigned)id);
	return proto_args(b, btf__type_by_id(b->btf, f->type), 0, types, max, ret);
}

int sema_btf_rawtp_args(struct sema_btf *b, const char *event, struct type **types, int max)
{
	char name[256];
	snprintf(name, sizeof(name), "btf_trace_%s", event);
	int id = find(b, name, BTF_KIND_TYPEDEF);
	if (id <= 0)
		return -1;
	const struct btf_type *p = skip_mods(b, (unsigned)id);
	if (!p || !btf_is_ptr(p))
		return -1;
	return proto_args(b, skip_mods(b, p->type), 1, types, max, NULL);
}

void sema_btf_each_func(struct sema_btf *b, void (*fn)(void *ctx, const char *name), void *ctx)
{
	for (unsigned id = 1; id < b->n; id++) {
		const struct btf_type *t = btf__type_by_id(b->btf, id);
		if (btf_is_func(t))
			fn(ctx, btf__name_by_offset(b->btf, t->name_off));
	}
}
