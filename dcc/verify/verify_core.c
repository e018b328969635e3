/*
 * CO-RE relocations without a kernel: each relocation read from .BTF.ext
 * (verify_ext.c), its local type and access string matched against a target
 * BTF the way libbpf matches them at load time (same essential name, same
 * kind, members found by name through anonymous members, compatible member
 * kinds), one line of verdict per BTF.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "verify.h"

#define MAX_ACCESS 64

const char *verify_relo_kind_name(uint32_t kind)
{
	static const char *const names[] = {
		"byte_off", "byte_sz", "field_exists", "signed", "lshift_u64", "rshift_u64",
		"local_type_id", "target_type_id", "type_exists", "type_size",
		"enumval_exists", "enumval_value", "type_matches",
	};

	return kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "unknown";
}

static bool is_field_kind(uint32_t k)
{
	return k <= VR_FIELD_RSHIFT_U64;
}

static bool is_composite(const struct btf_type *t)
{
	return btf_is_struct(t) || btf_is_union(t);
}

static const struct btf_type *skip_mods(const struct btf *btf, uint32_t id, uint32_t *res)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	for (int guard = 0; t && guard < 64; guard++) {
		if (!btf_is_mod(t) && !btf_is_typedef(t)) {
			if (res)
				*res = id;
			return t;
		}
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	return NULL;
}

/* A name without its "___flavor" suffix. */
static size_t essential_len(const char *name)
{
	const char *p = strstr(name, "___");

	return p ? (size_t)(p - name) : strlen(name);
}

static const char *kind_word(const struct btf_type *t)
{
	switch (btf_kind(t)) {
	case BTF_KIND_INT: return "an integer";
	case BTF_KIND_PTR: return "a pointer";
	case BTF_KIND_ARRAY: return "an array";
	case BTF_KIND_STRUCT: return "a struct";
	case BTF_KIND_UNION: return "a union";
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64: return "an enum";
	case BTF_KIND_FWD: return "a forward declaration";
	case BTF_KIND_FUNC_PROTO: return "a function";
	case BTF_KIND_FLOAT: return "a float";
	default: return "something else";
	}
}

static bool same_core_kind(const struct btf_type *a, const struct btf_type *b)
{
	return btf_kind(a) == btf_kind(b) || (btf_is_any_enum(a) && btf_is_any_enum(b));
}

/* Can a local member of type lid be read from a target member of type tid?
 * Any struct/union goes with any struct/union; other kinds must agree, enums
 * and forward declarations by name, arrays by element. */
static bool fields_compat(const struct btf *lb, uint32_t lid, const struct btf *tb, uint32_t tid)
{
	for (int depth = 0; depth < 32; depth++) {
		const struct btf_type *l = skip_mods(lb, lid, &lid), *t = skip_mods(tb, tid, &tid);

		if (!l || !t)
			return false;
		if (is_composite(l) && is_composite(t))
			return true;
		if (!same_core_kind(l, t))
			return false;
		switch (btf_kind(l)) {
		case BTF_KIND_PTR:
		case BTF_KIND_FLOAT:
			return true;
		case BTF_KIND_FWD:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64: {
			const char *ln = btf__name_by_offset(lb, l->name_off);
			const char *tn = btf__name_by_offset(tb, t->name_off);
			size_t ll = essential_len(ln), tl = essential_len(tn);

			return !ll || !tl || (ll == tl && !strncmp(ln, tn, ll));
		}
		case BTF_KIND_INT:
			/* old-style bit-field integers are refused, others all agree */
			return !btf_int_offset(l) && !btf_int_offset(t);
		case BTF_KIND_ARRAY:
			lid = btf_array(l)->type;
			tid = btf_array(t)->type;
			continue;
		default:
			return false;
		}
	}
	return false;
}

/* One step of a field access in source terms: a named member or an index. */
struct step {
	const char *name;     /* NULL: array index */
	uint32_t idx;
	uint32_t local_type;  /* member's (or element's) local type */
};

struct spec {
	uint32_t root;        /* relocation's type (named) */
	uint32_t first;       /* access[0]: index on the root pointer */
	struct step steps[MAX_ACCESS];
	int nsteps;
	/* filled while matching a target */
	uint64_t bit_off;
	uint32_t last_type;   /* type of the accessed field */
	uint32_t bit_size;    /* bit-field size, 0 for a whole field */
};

/* The verdict on one candidate, kept to name the failure. */
enum miss {
	MISS_NONE,
	MISS_MEMBER,    /* steps[at] not found */
	MISS_COMPAT,    /* steps[at] found with an incompatible type */
	MISS_INDEX,     /* steps[at] out of the target array's bounds or not an array */
};

struct match {
	enum miss miss;
	int at;
	uint32_t targ_type;   /* the member found when MISS_COMPAT */
	uint64_t value;
	uint32_t type;        /* the field's type, modifiers and typedefs skipped */
	int64_t size;         /* its size */
	bool bitfield;
};

static int parse_access(const char *s, uint32_t *idx, int max)
{
	int n = 0;

	while (*s) {
		char *end;
		unsigned long v;

		if (n == max || *s < '0' || *s > '9')
			return -1;
		errno = 0;
		v = strtoul(s, &end, 10);
		if (errno || v > UINT32_MAX)
			return -1;
		idx[n++] = (uint32_t)v;
		s = end;
		if (*s == ':')
			s++;
		else if (*s)
			return -1;
	}
	return n;
}

/* Walk the local type along the access string: the named steps of the path
 * (anonymous members are not part of it; the target may nest differently). */
static int local_spec(const struct btf *lb, const struct vrelo *r, struct spec *sp, char *why,
		      size_t whylen)
{
	uint32_t idx[MAX_ACCESS], id;
	const struct btf_type *t;
	int n = parse_access(r->access, idx, MAX_ACCESS);

	memset(sp, 0, sizeof(*sp));
	if (n < 1) {
		snprintf(why, whylen, "malformed access string \"%s\"", r->access);
		return -1;
	}
	sp->root = r->type_id;
	sp->first = idx[0];
	id = r->type_id;
	for (int i = 1; i < n; i++) {
		t = skip_mods(lb, id, &id);
		if (!t) {
			snprintf(why, whylen, "bad local type [%u]", id);
			return -1;
		}
		if (is_composite(t)) {
			const struct btf_member *m;

			if (idx[i] >= btf_vlen(t)) {
				snprintf(why, whylen, "access \"%s\" goes past member %u of [%u]",
					 r->access, btf_vlen(t), id);
				return -1;
			}
			m = btf_members(t) + idx[i];
			if (*btf__name_by_offset(lb, m->name_off))
				sp->steps[sp->nsteps++] = (struct step){
					btf__name_by_offset(lb, m->name_off), idx[i], m->type };
			id = m->type;
		} else if (btf_is_array(t)) {
			id = btf_array(t)->type;
			sp->steps[sp->nsteps++] = (struct step){ NULL, idx[i], id };
		} else {
			snprintf(why, whylen, "access \"%s\" indexes %s", r->access,
				 kind_word(t));
			return -1;
		}
	}
	return 0;
}

/* Find member name in the target composite tid, through anonymous struct and
 * union members; adds its bit offset. 1 found (and *found set), 0 not. */
static int find_member(const struct btf *tb, uint32_t tid, const char *name, uint64_t *bit_off,
		       const struct btf_member **found, const struct btf_type **owner, int depth)
{
	const struct btf_type *t = skip_mods(tb, tid, &tid);
	const struct btf_member *m;

	if (!t || !is_composite(t) || depth > 32)
		return 0;
	m = btf_members(t);
	for (uint32_t i = 0; i < btf_vlen(t); i++, m++) {
		const char *mn = btf__name_by_offset(tb, m->name_off);
		uint64_t off = btf_member_bit_offset(t, i);

		if (!*mn) {
			const struct btf_type *mt = skip_mods(tb, m->type, NULL);

			if (mt && is_composite(mt) &&
			    find_member(tb, m->type, name, bit_off, found, owner, depth + 1)) {
				*bit_off += off;
				return 1;
			}
			continue;
		}
		if (!strcmp(mn, name)) {
			*bit_off += off;
			*found = m;
			*owner = t;
			return 1;
		}
	}
	return 0;
}

/* libbpf's rule for a flexible array: the last member of its struct with no
 * elements; here, any zero-length array at the end of the path. */
static bool flex_array(const struct btf_type *t, int step, int nsteps)
{
	return btf_array(t)->nelems == 0 && step == nsteps - 1;
}

static uint64_t field_value(const struct btf *tb, const struct spec *sp, uint32_t kind)
{
	int64_t sz = btf__resolve_size(tb, sp->last_type);
	const struct btf_type *t = skip_mods(tb, sp->last_type, NULL);
	uint64_t byte_sz = sz > 0 ? (uint64_t)sz : 0, byte_off;

	if (!sp->bit_size) {
		byte_off = sp->bit_off / 8;
	} else {
		/* a bit-field is loaded as the smallest aligned word holding it */
		byte_off = byte_sz ? sp->bit_off / 8 / byte_sz * byte_sz : 0;
		while (byte_sz && byte_sz < 8 &&
		       sp->bit_off + sp->bit_size - byte_off * 8 > byte_sz * 8) {
			byte_sz *= 2;
			byte_off = sp->bit_off / 8 / byte_sz * byte_sz;
		}
	}
	switch (kind) {
	case VR_FIELD_BYTE_OFFSET: return byte_off;
	case VR_FIELD_BYTE_SIZE: return byte_sz;
	case VR_FIELD_EXISTS: return 1;
	case VR_FIELD_SIGNED:
		return t && ((btf_is_int(t) && (btf_int_encoding(t) & BTF_INT_SIGNED)) ||
			     (btf_is_any_enum(t) && btf_kflag(t)));
	case VR_FIELD_LSHIFT_U64:
		if (!sp->bit_size)
			return 64 - byte_sz * 8;
		return 64 - (sp->bit_off + sp->bit_size - byte_off * 8);
	case VR_FIELD_RSHIFT_U64:
		return sp->bit_size ? 64 - sp->bit_size : 64 - byte_sz * 8;
	default: return 0;
	}
}

/* Match the local path in candidate target type cand. */
static void match_field(const struct btf *lb, const struct spec *lsp, const struct btf *tb,
			uint32_t cand, uint32_t kind, struct match *mt)
{
	struct spec sp = *lsp;
	uint32_t id = cand;
	int64_t root_sz = btf__resolve_size(tb, cand);

	memset(mt, 0, sizeof(*mt));
	sp.bit_off = root_sz > 0 ? (uint64_t)root_sz * 8 * lsp->first : 0;
	sp.bit_size = 0;
	for (int i = 0; i < lsp->nsteps; i++) {
		const struct step *s = &lsp->steps[i];
		const struct btf_type *t = skip_mods(tb, id, &id);

		mt->at = i;
		if (!t) {
			mt->miss = MISS_MEMBER;
			return;
		}
		if (s->name) {
			const struct btf_member *m = NULL;
			const struct btf_type *owner = NULL;

			if (!find_member(tb, id, s->name, &sp.bit_off, &m, &owner, 0)) {
				mt->miss = MISS_MEMBER;
				return;
			}
			if (!fields_compat(lb, s->local_type, tb, m->type)) {
				mt->miss = MISS_COMPAT;
				mt->targ_type = m->type;
				return;
			}
			sp.bit_size = btf_member_bitfield_size(owner,
							       (uint32_t)(m - btf_members(owner)));
			id = m->type;
		} else {
			int64_t esz;

			if (!btf_is_array(t) ||
			    (!flex_array(t, i, lsp->nsteps) && s->idx >= btf_array(t)->nelems)) {
				mt->miss = MISS_INDEX;
				mt->targ_type = id;
				return;
			}
			id = btf_array(t)->type;
			esz = btf__resolve_size(tb, id);
			sp.bit_off += (esz > 0 ? (uint64_t)esz : 0) * 8 * s->idx;
			sp.bit_size = 0;
		}
	}
	sp.last_type = id;
	mt->miss = MISS_NONE;
	mt->value = field_value(tb, &sp, kind);
	skip_mods(tb, id, &mt->type);
	mt->size = btf__resolve_size(tb, id);
	mt->bitfield = sp.bit_size != 0;
	(void)lb;
}

/* libbpf rewrites a load or store of a relocated field in place: its offset
 * must fit the instruction, and a field of another size must be a pointer or
 * an unsigned integer on both sides, read with the local size. */
static int check_mem_insn(const struct vobj *o, const struct vrelo *r, const struct match *lm,
			  const struct match *tm, const struct btf *tb, const char *path,
			  const char *tname, char *why, size_t whylen)
{
	static const int bytes[4] = { 4, 2, 1, 8 };
	const unsigned char *insn = verify_obj_insn_at(o, r->sec, r->insn_off);
	const struct btf_type *lt, *tt;
	int cls, insn_sz;

	if (!insn || r->kind != VR_FIELD_BYTE_OFFSET)
		return 0;
	cls = insn[0] & 7;
	if (cls != 1 && cls != 2 && cls != 3) /* BPF_LDX, BPF_ST, BPF_STX */
		return 0;
	if (tm->value > 32767) {
		snprintf(why, whylen, "field %s (%s) is at offset %llu in %s, past what a load "
			 "instruction holds", path, verify_relo_kind_name(r->kind),
			 (unsigned long long)tm->value, tname);
		return -1;
	}
	if (lm->bitfield || tm->bitfield || lm->size == tm->size)
		return 0;
	lt = btf__type_by_id(o->btf, lm->type);
	tt = btf__type_by_id(tb, tm->type);
	insn_sz = bytes[(insn[0] >> 3) & 3];
	if (!(btf_is_ptr(lt) && btf_is_ptr(tt)) &&
	    !(btf_is_int(lt) && btf_is_int(tt) && !(btf_int_encoding(lt) & BTF_INT_SIGNED) &&
	      !(btf_int_encoding(tt) & BTF_INT_SIGNED))) {
		snprintf(why, whylen, "field %s (%s) is %lld bytes in %s, %lld in the object: only "
			 "pointers and unsigned integers can be loaded with another size", path,
			 verify_relo_kind_name(r->kind), (long long)tm->size, tname,
			 (long long)lm->size);
		return -1;
	}
	if (insn_sz != lm->size || (tm->size != 1 && tm->size != 2 && tm->size != 4 &&
				    tm->size != 8)) {
		snprintf(why, whylen, "field %s (%s) is %lld bytes in %s: the %d-byte access "
			 "cannot be resized", path, verify_relo_kind_name(r->kind),
			 (long long)tm->size, tname, insn_sz);
		return -1;
	}
	return 0;
}

/* "task_struct.real_parent.tgid", "x[2].y" */
static void path_text(const struct btf *lb, const struct spec *sp, char *buf, size_t len)
{
	const struct btf_type *root = btf__type_by_id(lb, sp->root);
	size_t n = (size_t)snprintf(buf, len, "%s", btf__name_by_offset(lb, root->name_off));

	if (sp->first && n < len)
		n += (size_t)snprintf(buf + n, len - n, "[%u]", sp->first);
	for (int i = 0; i < sp->nsteps && n < len; i++) {
		if (sp->steps[i].name)
			n += (size_t)snprintf(buf + n, len - n, ".%s", sp->steps[i].name);
		else
			n += (size_t)snprintf(buf + n, len - n, "[%u]", sp->steps[i].idx);
	}
}

static const char *type_kw(const struct btf_type *t)
{
	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT: return "struct ";
	case BTF_KIND_UNION: return "union ";
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64: return "enum ";
	case BTF_KIND_TYPEDEF: return "typedef ";
	default: return "";
	}
}

/* Target types with the same kind and essential name as local type lid. */
static int candidates(const struct btf *lb, uint32_t lid, const struct btf *tb, uint32_t **out)
{
	const struct btf_type *lt = btf__type_by_id(lb, lid);
	const char *ln = btf__name_by_offset(lb, lt->name_off);
	size_t ll = essential_len(ln), cap = 0;
	uint32_t n = btf__type_cnt(tb);
	int cnt = 0;

	*out = NULL;
	for (uint32_t id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(tb, id);
		const char *tn;

		if (!same_core_kind(lt, t))
			continue;
		tn = btf__name_by_offset(tb, t->name_off);
		if (essential_len(tn) != ll || strncmp(tn, ln, ll))
			continue;
		if ((size_t)cnt == cap) {
			cap = cap * 2 + 4;
			*out = realloc(*out, cap * sizeof(**out));
		}
		(*out)[cnt++] = id;
	}
	return cnt;
}

/* What a relocation resolves to: what it reads (in source terms) and the
 * value libbpf would patch in, locally and in the target. */
struct verdict {
	char what[512];
	uint64_t local, target;
};

/* One relocation being checked against one target BTF. */
struct rcheck {
	const struct vobj *o;
	const struct vrelo *r;
	const struct btf *tb;
	const char *tname;              /* the target, for messages */
	const struct btf_type *lt;      /* the relocated local type */
	const char *lname, *kname;      /* its name, the relocation kind's */
	const uint32_t *cands;          /* target types of lt's kind and essential name */
	int ncands;
	char *why;
	size_t whylen;
};

/* A field relocation: the access path must resolve to one offset (or size...)
 * in the target, and the instruction it patches must still fit. */
static int field_relo(const struct rcheck *c, struct verdict *v)
{
	const struct btf *lb = c->o->btf, *tb = c->tb;
	const struct vrelo *r = c->r;
	const char *lname = c->lname, *kname = c->kname, *tname = c->tname;
	char *why = c->why;
	size_t whylen = c->whylen;
	struct spec sp;
	struct match best = { .miss = MISS_MEMBER, .at = -1 }, m, lm;
	uint32_t best_id = 0;
	bool found = false;
	char path[512];

	if (local_spec(lb, r, &sp, path, sizeof(path))) {
		snprintf(why, whylen, "field of %s%s (%s): %s", type_kw(c->lt), lname, kname,
			 path);
		return -1;
	}
	path_text(lb, &sp, path, sizeof(path));
	snprintf(v->what, sizeof(v->what), "%s", path);
	match_field(lb, &sp, lb, r->type_id, r->kind, &lm);
	v->local = lm.value;
	v->target = 0;
	for (int i = 0; i < c->ncands; i++) {
		match_field(lb, &sp, tb, c->cands[i], r->kind, &m);
		if (m.miss == MISS_NONE) {
			if (found && m.value != best.value) {
				snprintf(why, whylen, "field %s (%s) is ambiguous in %s: "
					 "types [%u] and [%u] give %llu and %llu", path,
					 kname, tname, best_id, c->cands[i],
					 (unsigned long long)best.value,
					 (unsigned long long)m.value);
				return -1;
			}
			found = true;
			best = m;
			best_id = c->cands[i];
			v->target = m.value;
		} else if (!found && m.at > best.at) {
			best = m;
		}
	}
	if (found)
		return check_mem_insn(c->o, r, &lm, &best, tb, path, tname, why, whylen);
	if (r->kind == VR_FIELD_EXISTS)
		return 0;
	if (!c->ncands) {
		snprintf(why, whylen, "field %s (%s): %s%s does not exist in %s", path,
			 kname, type_kw(c->lt), lname, tname);
	} else if (best.miss == MISS_COMPAT) {
		const struct btf_type *tt = skip_mods(tb, best.targ_type, NULL);
		const struct btf_type *ltt =
			skip_mods(lb, sp.steps[best.at].local_type, NULL);

		snprintf(why, whylen, "field %s (%s) is %s in %s, %s in the object", path,
			 kname, tt ? kind_word(tt) : "broken", tname,
			 ltt ? kind_word(ltt) : "broken");
	} else if (best.miss == MISS_INDEX) {
		snprintf(why, whylen, "field %s (%s): index %u is out of bounds in %s",
			 path, kname, sp.steps[best.at].idx, tname);
	} else {
		snprintf(why, whylen, "field %s (%s) does not exist in %s", path, kname,
			 tname);
	}
	return -1;
}

/* An enumerator relocation: the enumerator must exist in the target, with
 * one value when the value is what is read. */
static int enumval_relo(const struct rcheck *c, struct verdict *v)
{
	const struct btf *lb = c->o->btf, *tb = c->tb;
	const struct vrelo *r = c->r;
	const struct btf_type *lt = c->lt;
	const char *lname = c->lname, *kname = c->kname, *tname = c->tname;
	char *why = c->why;
	size_t whylen = c->whylen;
	uint32_t idx[2];
	const char *ename = NULL;
	bool found = false;
	int64_t value = 0;

	if (!btf_is_any_enum(lt) || parse_access(r->access, idx, 2) != 1 ||
	    idx[0] >= btf_vlen(lt)) {
		snprintf(why, whylen, "%s relocation on %s%s with access \"%s\"", kname,
			 type_kw(lt), lname, r->access);
		return -1;
	}
	ename = btf__name_by_offset(lb, btf_is_enum(lt) ? btf_enum(lt)[idx[0]].name_off :
				    btf_enum64(lt)[idx[0]].name_off);
	snprintf(v->what, sizeof(v->what), "%s%s::%s", type_kw(lt), lname, ename);
	v->local = r->kind == VR_ENUMVAL_EXISTS ? 1 : btf_is_enum(lt) ?
		(uint64_t)(int64_t)btf_enum(lt)[idx[0]].val :
		btf_enum64_value(btf_enum64(lt) + idx[0]);
	for (int i = 0; i < c->ncands; i++) {
		const struct btf_type *t = btf__type_by_id(tb, c->cands[i]);

		for (uint32_t k = 0; k < btf_vlen(t); k++) {
			uint32_t no = btf_is_enum(t) ? btf_enum(t)[k].name_off :
				btf_enum64(t)[k].name_off;
			int64_t v = btf_is_enum(t) ? btf_enum(t)[k].val :
				(int64_t)btf_enum64_value(btf_enum64(t) + k);

			if (strcmp(btf__name_by_offset(tb, no), ename))
				continue;
			if (found && v != value && r->kind == VR_ENUMVAL_VALUE) {
				snprintf(why, whylen, "enum value %s::%s (%s) is ambiguous "
					 "in %s", lname, ename, kname, tname);
				return -1;
			}
			found = true;
			value = v;
		}
	}
	v->target = r->kind == VR_ENUMVAL_EXISTS ? found : (uint64_t)value;
	if (!found && r->kind == VR_ENUMVAL_VALUE) {
		snprintf(why, whylen, "enum value %s%s::%s (%s) does not exist in %s",
			 type_kw(lt), lname, ename, kname, tname);
		return -1;
	}
	return 0;
}

/* A type relocation, by name: existence checks never fail; a size must be the
 * same for every candidate. */
static int type_relo(const struct rcheck *c, struct verdict *v)
{
	const struct btf *lb = c->o->btf, *tb = c->tb;
	const struct vrelo *r = c->r;
	const uint32_t *cands = c->cands;
	int ncands = c->ncands;

	v->local = r->kind == VR_TYPE_SIZE ? (uint64_t)btf__resolve_size(lb, r->type_id) :
		r->kind == VR_TYPE_ID_TARGET ? r->type_id : 1;
	v->target = !ncands ? 0 : r->kind == VR_TYPE_SIZE ?
		(uint64_t)btf__resolve_size(tb, cands[0]) :
		r->kind == VR_TYPE_ID_TARGET ? cands[0] : 1;
	if (r->kind == VR_TYPE_EXISTS || r->kind == VR_TYPE_MATCHES)
		return 0;
	if (!ncands) {
		snprintf(c->why, c->whylen, "type %s%s (%s) does not exist in %s", type_kw(c->lt),
			 c->lname, c->kname, c->tname);
		return -1;
	}
	if (r->kind == VR_TYPE_SIZE) {
		int64_t sz = btf__resolve_size(tb, cands[0]);

		for (int i = 1; i < ncands; i++) {
			if (btf__resolve_size(tb, cands[i]) != sz) {
				snprintf(c->why, c->whylen, "type %s%s (%s) is ambiguous in %s: "
					 "types [%u] and [%u] differ in size", type_kw(c->lt),
					 c->lname, c->kname, c->tname, cands[0], cands[i]);
				return -1;
			}
		}
	}
	return 0;
}

/* The failure of one relocation, in source terms, or 0 when it resolves. */
static int check_relo(const struct vobj *o, const struct vrelo *r, const struct btf *tb,
		      const char *tname, char *why, size_t whylen, struct verdict *v)
{
	const struct btf *lb = o->btf;
	const struct btf_type *lt = btf__type_by_id(lb, r->type_id);
	struct rcheck c = {
		.o = o, .r = r, .tb = tb, .tname = tname, .lt = lt,
		.lname = btf__name_by_offset(lb, lt->name_off),
		.kname = verify_relo_kind_name(r->kind), .why = why, .whylen = whylen,
	};
	uint32_t *cands = NULL;
	int ret;

	snprintf(v->what, sizeof(v->what), "%s%s", type_kw(lt), c.lname);
	v->local = v->target = r->type_id;
	if (r->kind == VR_TYPE_ID_LOCAL)
		return 0;
	if (r->kind > VR_TYPE_MATCHES) {
		snprintf(why, whylen, "relocation kind %u is unknown", r->kind);
		return -1;
	}
	if (!*c.lname) {
		snprintf(why, whylen, "%s relocation on an anonymous type [%u]", c.kname,
			 r->type_id);
		return -1;
	}
	c.ncands = candidates(lb, r->type_id, tb, &cands);
	c.cands = cands;
	if (is_field_kind(r->kind))
		ret = field_relo(&c, v);
	else if (r->kind == VR_ENUMVAL_EXISTS || r->kind == VR_ENUMVAL_VALUE)
		ret = enumval_relo(&c, v);
	else
		ret = type_relo(&c, v);
	free(cands);
	return ret;
}

int verify_core_prog(const struct vobj *o, const struct btf *targ, const char *tname,
		     const char *prog, char *why, size_t whylen)
{
	char one[1024];
	struct verdict v;

	for (int i = 0; i < o->nrelos; i++) {
		const struct vrelo *r = &o->relos[i];
		const struct vfunc *f = verify_obj_func_at(o, r->sec, r->insn_off);

		if (strcmp(r->sec, ".text") && (!f || strcmp(f->name, prog)))
			continue;
		if (check_relo(o, r, targ, tname, one, sizeof(one), &v)) {
			snprintf(why, whylen, "%s", one);
			return 1;
		}
	}
	return 0;
}

int verify_core(const struct vobj *o, const struct btf *targ, const char *name, bool verbose)
{
	char why[1024];
	struct verdict v;

	for (int i = 0; i < o->nrelos; i++) {
		const struct vrelo *r = &o->relos[i];
		const struct vfunc *f;
		const struct vline *l;

		int bad = check_relo(o, r, targ, name, why, sizeof(why), &v);

		f = verify_obj_func_at(o, r->sec, r->insn_off);
		l = verify_obj_line_at(o, r->sec, r->insn_off);
		if (!bad) {
			if (verbose) {
				printf("\t%s", f ? f->name : r->sec);
				if (l)
					printf(" (%s:%u)", l->file, l->line);
				printf(": %s %s: %llu, %llu in %s\n",
				       verify_relo_kind_name(r->kind), v.what,
				       (unsigned long long)v.local,
				       (unsigned long long)v.target, name);
			}
			continue;
		}
		printf("%s: %s (%s", o->path, f ? f->name : "?", r->sec);
		if (l)
			printf(", %s:%u", l->file, l->line);
		printf("): %s\n", why);
		return 1;
	}
	printf("%s: %d relocation%s resolve%s against %s\n", o->path, o->nrelos,
	       o->nrelos == 1 ? "" : "s", o->nrelos == 1 ? "s" : "", name);
	return 0;
}
