/*
 * The metadata section: finds .dcc.meta in a BPF ELF object held in memory
 * and checks a metadata blob before anything trusts it, so that every table
 * entry, string offset and record/key field read later is within bounds.
 */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <dcc/abi_agg.h>
#include <dcc/abi_names.h>
#include "rt.h"

#ifndef EM_BPF
#define EM_BPF 247
#endif

static int why_set(char *why, size_t whylen, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int why_set(char *why, size_t whylen, int err, const char *fmt, ...)
{
	va_list ap;

	if (why && whylen) {
		va_start(ap, fmt);
		vsnprintf(why, whylen, fmt, ap);
		va_end(ap);
	}
	return err;
}

int dcc_meta_from_elf(const void *elf, size_t size, const void **meta, size_t *meta_size,
		      char *why, size_t whylen)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	GElf_Shdr sh;
	Elf *e;
	int err;

	if (size < 4 || memcmp(elf, ELFMAG, SELFMAG) != 0)
		return why_set(why, whylen, -ENOEXEC, "not an ELF file");
	if (elf_version(EV_CURRENT) == EV_NONE)
		return why_set(why, whylen, -EINVAL, "libelf: %s", elf_errmsg(-1));
	e = elf_memory((char *)elf, size);
	if (!e)
		return why_set(why, whylen, -ENOEXEC, "not an ELF file: %s", elf_errmsg(-1));
	if (elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh)) {
		err = why_set(why, whylen, -ENOEXEC, "not an ELF file");
		goto out;
	}
	if (eh.e_machine != EM_BPF) {
		err = why_set(why, whylen, -ENOEXEC, "not a BPF object");
		goto out;
	}
	if (elf_getshdrstrndx(e, &shstrndx)) {
		err = why_set(why, whylen, -EBADMSG, "truncated or corrupt ELF file: %s",
			      elf_errmsg(-1));
		goto out;
	}
	while ((scn = elf_nextscn(e, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(e, shstrndx, sh.sh_name);
		if (name && strcmp(name, DCC_META_SECTION) == 0)
			break;
	}
	if (!scn) {
		err = why_set(why, whylen, -ENOEXEC, "no %s section: not a dcc object",
			      DCC_META_SECTION);
		goto out;
	}
	if (sh.sh_type == SHT_NOBITS || sh.sh_offset > size || sh.sh_size > size - sh.sh_offset) {
		err = why_set(why, whylen, -EBADMSG, "truncated metadata");
		goto out;
	}
	*meta = (const char *)elf + sh.sh_offset;
	*meta_size = sh.sh_size;
	err = dcc_meta_check(*meta, *meta_size, why, whylen);
out:
	elf_end(e);
	return err;
}

/* Is [off, off + n * esz) inside the blob? */
static bool table_ok(uint64_t off, uint64_t n, uint64_t esz, uint64_t size)
{
	return off <= size && n <= (size - off) / esz;
}

static bool str_ok(const struct dcc_meta_header *h, uint32_t off)
{
	return off < h->str_size;
}

static int field_check(const struct dcc_meta_header *h, const struct dcc_meta_field *f,
		       uint32_t limit, uint32_t naggs, const char *what, char *why, size_t whylen)
{
	if (!str_ok(h, f->type))
		return why_set(why, whylen, -EBADMSG, "%s: string offset %u out of range", what,
			       f->type);
	switch (f->kind) {
	case DCC_K_INT:
		if (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8)
			return why_set(why, whylen, -EBADMSG, "%s: integer of %u bytes", what,
				       f->size);
		break;
	case DCC_K_INET:
		if (f->size != 24 && f->size != 32)
			return why_set(why, whylen, -EBADMSG, "%s: network address of %u bytes",
				       what, f->size);
		break;
	case DCC_K_FLOAT:
		if (f->size != 4 && f->size != 8 && f->size != 16)
			return why_set(why, whylen, -EBADMSG, "%s: floating-point value of %u "
				       "bytes", what, f->size);
		break;
	case DCC_K_STRING:
	case DCC_K_BYTES:
		if (f->size == 0)
			return why_set(why, whylen, -EBADMSG, "%s: empty %s", what,
				       f->kind == DCC_K_STRING ? "string" : "blob");
		break;
	case DCC_K_STACK:
	case DCC_K_USTACK:
		if (f->size % 8 || f->size < (f->kind == DCC_K_STACK ? 8u : 16u))
			return why_set(why, whylen, -EBADMSG, "%s: stack of %u bytes", what,
				       f->size);
		break;
	case DCC_K_SYM:
	case DCC_K_MOD:
	case DCC_K_USYM:
	case DCC_K_UADDR:
	case DCC_K_UMOD:
		if (f->size != (f->kind <= DCC_K_MOD ? 8u : 16u))
			return why_set(why, whylen, -EBADMSG, "%s: address of %u bytes", what,
				       f->size);
		break;
	case DCC_K_AGG:
		if (f->offset >= naggs)
			return why_set(why, whylen, -EBADMSG, "%s: aggregation %u out of range",
				       what, f->offset);
		return 0;
	default:
		return why_set(why, whylen, -EBADMSG, "%s: unknown value kind %u", what, f->kind);
	}
	if (f->offset > limit || f->size > limit - f->offset)
		return why_set(why, whylen, -EBADMSG, "%s: bytes %u..%u beyond %u", what,
			       f->offset, f->offset + f->size, limit);
	return 0;
}

static int check_aggs(const struct dcc_meta_header *h, const char *base, char *why,
		      size_t whylen)
{
	const struct dcc_meta_agg *aggs = (const void *)(base + h->agg_off);
	const struct dcc_meta_field *keys = (const void *)(base + h->key_off);
	char what[64];

	for (uint32_t i = 0; i < h->naggs; i++) {
		const struct dcc_meta_agg *a = &aggs[i];
		int64_t vs;

		if (a->id != i)
			return why_set(why, whylen, -EBADMSG, "aggregation %u has id %u", i,
				       a->id);
		if (!str_ok(h, a->name) || !str_ok(h, a->map))
			return why_set(why, whylen, -EBADMSG,
				       "aggregation %u: string offset out of range", i);
		if (a->func < DCC_AGG_COUNT || a->func > DCC_AGG_LLQUANTIZE)
			return why_set(why, whylen, -EBADMSG,
				       "aggregation %u: unknown function %u", i, a->func);
		vs = abi_agg_value_size(a->func, a->param);
		if (vs < 0)
			return why_set(why, whylen, -EBADMSG, "aggregation %u: bad %s parameters",
				       i, abi_agg_func_name(a->func));
		/* quantize's value had no overflow slot before ABI_QUANTIZE_SLOTS */
		if (a->val_size != vs &&
		    !(a->func == DCC_AGG_QUANTIZE && a->val_size == ABI_QUANTIZE_BUCKETS * 8))
			return why_set(why, whylen, -EBADMSG,
				       "aggregation %u: %s value of %u bytes, expected %lld", i,
				       abi_agg_func_name(a->func), a->val_size, (long long)vs);
		if (a->first_key > h->nkeys || a->nkeys > h->nkeys - a->first_key)
			return why_set(why, whylen, -EBADMSG, "aggregation %u: keys out of range",
				       i);
		if (a->nkeys == 0 && a->key_size != 4)
			return why_set(why, whylen, -EBADMSG,
				       "aggregation %u: key of %u bytes without key fields", i,
				       a->key_size);
		if (a->key_size == 0)
			return why_set(why, whylen, -EBADMSG, "aggregation %u: empty key", i);
		for (uint32_t k = 0; k < a->nkeys; k++) {
			const struct dcc_meta_field *f = &keys[a->first_key + k];
			int err;

			if (f->kind == DCC_K_AGG || f->kind == DCC_K_FLOAT)
				return why_set(why, whylen, -EBADMSG,
					       "aggregation %u: key %u is %s", i, k,
					       f->kind == DCC_K_AGG ? "an aggregation"
								    : "floating-point");
			snprintf(what, sizeof(what), "aggregation %u key %u", i, k);
			err = field_check(h, f, a->key_size, h->naggs, what, why, whylen);
			if (err)
				return err;
		}
	}
	return 0;
}

static int check_clauses(const struct dcc_meta_header *h, const char *base, char *why,
			 size_t whylen)
{
	const struct dcc_meta_clause *cls = (const void *)(base + h->clause_off);
	const struct dcc_meta_action *acts = (const void *)(base + h->action_off);
	const struct dcc_meta_field *args = (const void *)(base + h->arg_off);
	char what[64];

	for (uint32_t i = 0; i < h->nclauses; i++) {
		const struct dcc_meta_clause *c = &cls[i];

		if (c->epid != i + 1)
			return why_set(why, whylen, -EBADMSG, "clause %u has epid %u", i, c->epid);
		if (!str_ok(h, c->loc))
			return why_set(why, whylen, -EBADMSG,
				       "clause %u: string offset %u out of range", i, c->loc);
		if (c->size < sizeof(struct dcc_rec_hdr))
			return why_set(why, whylen, -EBADMSG,
				       "clause %u: record of %u bytes is smaller than its header",
				       i, c->size);
		if (c->first_action > h->nactions || c->nactions > h->nactions - c->first_action)
			return why_set(why, whylen, -EBADMSG, "clause %u: actions out of range", i);
		for (uint32_t j = 0; j < c->nactions; j++) {
			const struct dcc_meta_action *a = &acts[c->first_action + j];

			if (a->kind < DCC_ACT_PRINTF || a->kind > DCC_ACT_PRINT)
				return why_set(why, whylen, -EBADMSG,
					       "clause %u action %u: unknown kind %u", i, j,
					       a->kind);
			if (a->kind != DCC_ACT_PRINT && !str_ok(h, a->fmt))
				return why_set(why, whylen, -EBADMSG,
					       "clause %u action %u: string offset %u out of range",
					       i, j, a->fmt);
			if (a->first_arg > h->nargs || a->nargs > h->nargs - a->first_arg)
				return why_set(why, whylen, -EBADMSG,
					       "clause %u action %u: arguments out of range", i, j);
			for (uint32_t k = 0; k < a->nargs; k++) {
				const struct dcc_meta_field *f = &args[a->first_arg + k];
				bool agg_act = a->kind == DCC_ACT_PRINTA ||
					       a->kind == DCC_ACT_CLEAR ||
					       a->kind == DCC_ACT_DENORMALIZE ||
					       ((a->kind == DCC_ACT_TRUNC ||
						 a->kind == DCC_ACT_NORMALIZE) && k == 0);
				int err;

				snprintf(what, sizeof(what), "clause %u action %u argument %u", i,
					 j, k);
				if (agg_act != (f->kind == DCC_K_AGG))
					return why_set(why, whylen, -EBADMSG, "%s: %s", what,
						       agg_act ? "not an aggregation"
							       : "unexpected aggregation");
				err = field_check(h, f, c->size, h->naggs, what, why, whylen);
				if (err)
					return err;
			}
			if ((a->kind == DCC_ACT_TRACE || a->kind == DCC_ACT_EXIT) && a->nargs != 1)
				return why_set(why, whylen, -EBADMSG,
					       "clause %u action %u: %s takes one argument", i, j,
					       a->kind == DCC_ACT_TRACE ? "trace" : "exit");
			if ((a->kind == DCC_ACT_PRINTA || a->kind == DCC_ACT_CLEAR ||
			     a->kind == DCC_ACT_TRUNC || a->kind == DCC_ACT_DENORMALIZE) &&
			    a->nargs == 0)
				return why_set(why, whylen, -EBADMSG,
					       "clause %u action %u: no aggregation", i, j);
			if (a->kind == DCC_ACT_TRUNC && a->nargs > 2)
				return why_set(why, whylen, -EBADMSG,
					       "clause %u action %u: trunc takes two arguments", i,
					       j);
			if (a->kind == DCC_ACT_TRACEMEM &&
			    (a->nargs < 1 || a->nargs > 2 ||
			     args[a->first_arg].kind != DCC_K_BYTES ||
			     (a->nargs == 2 && args[a->first_arg + 1].kind != DCC_K_INT)))
				return why_set(why, whylen, -EBADMSG,
					       "clause %u action %u: tracemem takes bytes and an "
					       "optional size", i, j);
			if (a->kind == DCC_ACT_NORMALIZE &&
			    (a->nargs != 2 || args[a->first_arg + 1].kind != DCC_K_INT))
				return why_set(why, whylen, -EBADMSG,
					       "clause %u action %u: normalize takes "
					       "an aggregation and an integer", i, j);
			if (a->kind == DCC_ACT_SETOPT && (a->nargs > 1 || a->fmt == 0 ||
			    (a->nargs && args[a->first_arg].kind != DCC_K_STRING)))
				return why_set(why, whylen, -EBADMSG,
					       "clause %u action %u: setopt needs an option name "
					       "and at most a string value", i, j);
			if ((a->kind == DCC_ACT_TRUNC) && a->nargs == 2 &&
			    args[a->first_arg + 1].kind != DCC_K_INT)
				return why_set(why, whylen, -EBADMSG,
					       "clause %u action %u: trunc count is not an integer",
					       i, j);
			if (a->kind == DCC_ACT_PRINT) {
				char pwhy[160];
				if (rt_print_check(h, base, a, pwhy, sizeof(pwhy)))
					return why_set(why, whylen, -EBADMSG,
						       "clause %u action %u: %s", i, j, pwhy);
			}
			/* commit() and discard() read their speculation id from the
			 * record: without an argument they would read another
			 * action's field, perhaps beyond this record */
			if ((a->kind == DCC_ACT_COMMIT || a->kind == DCC_ACT_DISCARD) &&
			    (a->nargs != 1 || args[a->first_arg].kind != DCC_K_INT))
				return why_set(why, whylen, -EBADMSG,
					       "clause %u action %u: %s takes one integer", i, j,
					       abi_action_name(a->kind));
			if (a->kind == DCC_ACT_EXIT && args[a->first_arg].kind != DCC_K_INT)
				return why_set(why, whylen, -EBADMSG,
					       "clause %u action %u: %s argument is not an integer",
					       i, j, abi_action_name(a->kind));
		}
	}
	return 0;
}

/* system(), freopen() and ftruncate() are run by the consumer, and the loader
 * asks for -w by the object's destructive flag alone: an object that has one
 * of them without the flag is refused, whatever else it says. */
static int check_destructive(const struct dcc_meta_header *h, const char *base, char *why,
			     size_t whylen)
{
	const struct dcc_meta_action *acts = (const void *)(base + h->action_off);

	if (h->flags & DCC_META_F_DESTRUCTIVE)
		return 0;
	for (uint32_t i = 0; i < h->nactions; i++)
		if (acts[i].kind == DCC_ACT_SYSTEM || acts[i].kind == DCC_ACT_FREOPEN ||
		    acts[i].kind == DCC_ACT_FTRUNCATE)
			return why_set(why, whylen, -EBADMSG, "action %u: %s() in an object "
				       "not marked destructive", i, abi_action_name(acts[i].kind));
	return 0;
}

static int check(const void *meta, size_t size, char *why, size_t whylen)
{
	const struct dcc_meta_header *h = meta;
	const char *base = meta;
	const struct dcc_meta_probe *probes;
	const struct dcc_meta_attach *att;
	const struct dcc_meta_option *opts;
	int err;

	if (size < sizeof(h->magic) || memcmp(h->magic, DCC_META_MAGIC, sizeof(h->magic)) != 0)
		return why_set(why, whylen, -EBADMSG, "bad metadata magic: not a dcc object");
	if (size < offsetof(struct dcc_meta_header, size))
		return why_set(why, whylen, -EBADMSG, "truncated metadata");
	if (h->version != DCC_META_VERSION)
		return why_set(why, whylen, -ENOTSUP,
			       "metadata version %u is not supported (this runtime reads %u)",
			       h->version, DCC_META_VERSION);
	if (size < sizeof(*h) || h->size > size)
		return why_set(why, whylen, -EBADMSG, "truncated metadata");
	if (h->size < sizeof(*h))
		return why_set(why, whylen, -EBADMSG, "metadata size %u is too small", h->size);
	size = h->size;

#define TABLE(off, n, type, what)                                                           \
	do {                                                                               \
		if (!table_ok(h->off, h->n, sizeof(type), size))                           \
			return why_set(why, whylen, -EBADMSG, "truncated metadata: %s table", \
				       what);                                               \
		if (h->n && h->off % _Alignof(type))                                       \
			return why_set(why, whylen, -EBADMSG,                               \
				       "misaligned metadata: %s table at %u", what, h->off); \
	} while (0)
	TABLE(str_off, str_size, char, "string");
	TABLE(probe_off, nprobes, struct dcc_meta_probe, "probe");
	TABLE(attach_off, nattach, struct dcc_meta_attach, "attach");
	TABLE(clause_off, nclauses, struct dcc_meta_clause, "clause");
	TABLE(action_off, nactions, struct dcc_meta_action, "action");
	TABLE(arg_off, nargs, struct dcc_meta_field, "argument");
	TABLE(agg_off, naggs, struct dcc_meta_agg, "aggregation");
	TABLE(key_off, nkeys, struct dcc_meta_field, "key");
	TABLE(opt_off, nopts, struct dcc_meta_option, "option");
	TABLE(type_off, ntypes, struct dcc_meta_type, "type");
	TABLE(member_off, nmembers, struct dcc_meta_member, "member");
#undef TABLE
	if (h->str_size == 0 || base[h->str_off] != '\0' ||
	    base[h->str_off + h->str_size - 1] != '\0')
		return why_set(why, whylen, -EBADMSG,
			       "bad metadata string table: must start and end with NUL");
	if (!str_ok(h, h->script))
		return why_set(why, whylen, -EBADMSG, "script name: string offset %u out of range",
			       h->script);

	probes = (const void *)(base + h->probe_off);
	for (uint32_t i = 0; i < h->nprobes; i++) {
		const struct dcc_meta_probe *p = &probes[i];

		if (!str_ok(h, p->prov) || !str_ok(h, p->mod) || !str_ok(h, p->func) ||
		    !str_ok(h, p->name))
			return why_set(why, whylen, -EBADMSG,
				       "probe %u: string offset out of range", i);
	}
	att = (const void *)(base + h->attach_off);
	for (uint32_t i = 0; i < h->nattach; i++) {
		if (!str_ok(h, att[i].prog) || !str_ok(h, att[i].target))
			return why_set(why, whylen, -EBADMSG,
				       "attachment %u: string offset out of range", i);
		if (att[i].kind < DCC_ATTACH_BEGIN || att[i].kind > DCC_ATTACH_PID_OFFSET)
			return why_set(why, whylen, -EBADMSG, "attachment %u: unknown kind %u", i,
				       att[i].kind);
	}
	opts = (const void *)(base + h->opt_off);
	for (uint32_t i = 0; i < h->nopts; i++)
		if (!str_ok(h, opts[i].name) || !str_ok(h, opts[i].value))
			return why_set(why, whylen, -EBADMSG,
				       "option %u: string offset out of range", i);
	err = check_aggs(h, base, why, whylen);
	if (err)
		return err;
	err = rt_types_check(h, base, why, whylen);
	if (err)
		return err;
	err = check_clauses(h, base, why, whylen);
	if (err)
		return err;
	return check_destructive(h, base, why, whylen);
}

int dcc_meta_check(const void *meta, size_t size, char *why, size_t whylen)
{
	void *copy;
	int err;

	/* The tables are read in place below: work on an aligned copy if needed. */
	if ((uintptr_t)meta % 8 == 0)
		return check(meta, size, why, whylen);
	copy = malloc(size ? size : 1);
	if (!copy)
		return why_set(why, whylen, -ENOMEM, "out of memory");
	memcpy(copy, meta, size);
	err = check(copy, size, why, whylen);
	free(copy);
	return err;
}

const char *rt_str(const struct dcc_runtime *rt, uint32_t off)
{
	return off < rt->hdr->str_size ? rt->strs + off : "";
}

static int probe_cmp(const void *a, const void *b)
{
	const struct dcc_meta_probe *x = *(const struct dcc_meta_probe *const *)a;
	const struct dcc_meta_probe *y = *(const struct dcc_meta_probe *const *)b;

	return x->id < y->id ? -1 : x->id > y->id;
}

int rt_probe_index(struct dcc_runtime *rt)
{
	uint32_t n = rt->hdr->nprobes;

	rt->probe_by_id = calloc(n + 1, sizeof(*rt->probe_by_id));
	if (!rt->probe_by_id)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++)
		rt->probe_by_id[i] = &rt->probes[i];
	qsort(rt->probe_by_id, n, sizeof(*rt->probe_by_id), probe_cmp);
	return 0;
}

const struct dcc_meta_probe *rt_probe(const struct dcc_runtime *rt, uint32_t id)
{
	size_t lo = 0, hi = rt->hdr->nprobes;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		uint32_t m = rt->probe_by_id[mid]->id;

		if (m == id)
			return rt->probe_by_id[mid];
		if (m < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
