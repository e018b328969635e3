/* --dump-meta: an object's metadata section as readable tables. */
#include <stdio.h>

#include <dcc/abi.h>
#include <dcc/abi_names.h>
#include <dcc/runtime.h>
#include "meta_dump.h"

static const char *kind_name(uint32_t k)
{
	const char *n = abi_attach_name(k);
	return n ? n : "?";
}

static const char *act_name(uint32_t k)
{
	const char *n = abi_action_name(k);
	return n ? n : "?";
}

int meta_dump(FILE *out, const void *obj, size_t size)
{
	const void *mv;
	size_t msize;
	char why[256];
	if (dcc_meta_from_elf(obj, size, &mv, &msize, why, sizeof(why)) < 0) {
		fprintf(stderr, "dcc: error: %s\n", why);
		return 1;
	}
	const char *m = mv;
	const struct dcc_meta_header *h = mv;
	const char *strs = m + h->str_off;
#define S(off) (strs + (off))
	fprintf(out, "metadata version %u, %u bytes, script '%s'%s%s\n", h->version, h->size,
		S(h->script), h->flags & DCC_META_F_DESCRIPTION ? " (description)" : "",
		h->flags & DCC_META_F_DESTRUCTIVE ? " (destructive)" : "");
	const struct dcc_meta_probe *p = (const void *)(m + h->probe_off);
	fprintf(out, "probes: %u, enablings: %u\n", h->nprobes, h->nenablings);
	for (uint32_t i = 0; i < h->nprobes; i++)
		fprintf(out, "  %5u %s:%s:%s:%s\n", p[i].id, S(p[i].prov), S(p[i].mod),
			S(p[i].func), S(p[i].name));
	const struct dcc_meta_attach *a = (const void *)(m + h->attach_off);
	fprintf(out, "attach: %u\n", h->nattach);
	for (uint32_t i = 0; i < h->nattach; i++)
		fprintf(out, "  %-12s %-10s %s%s param=%llu\n", S(a[i].prog), kind_name(a[i].kind),
			S(a[i].target), a[i].flags & DCC_ATTACH_F_OPTIONAL ? " (optional)" : "",
			(unsigned long long)a[i].param);
	const struct dcc_meta_clause *c = (const void *)(m + h->clause_off);
	const struct dcc_meta_action *ac = (const void *)(m + h->action_off);
	const struct dcc_meta_field *f = (const void *)(m + h->arg_off);
	fprintf(out, "clauses: %u\n", h->nclauses);
	for (uint32_t i = 0; i < h->nclauses; i++) {
		fprintf(out, "  epid %u at %s: %u bytes\n", c[i].epid, S(c[i].loc), c[i].size);
		for (uint32_t j = 0; j < c[i].nactions; j++) {
			const struct dcc_meta_action *x = &ac[c[i].first_action + j];
			fprintf(out, "    %s", act_name(x->kind));
			if (x->kind == DCC_ACT_PRINT)
				fprintf(out, " type %u", x->fmt);
			else if (x->fmt)
				fprintf(out, " \"%s\"", S(x->fmt));
			for (uint32_t k = 0; k < x->nargs; k++) {
				const struct dcc_meta_field *y = &f[x->first_arg + k];
				fprintf(out, " [%u:%u %s]", y->offset, y->size,
					y->kind == DCC_K_AGG ? "agg" : S(y->type));
			}
			fputc('\n', out);
		}
	}
	const struct dcc_meta_agg *g = (const void *)(m + h->agg_off);
	const struct dcc_meta_field *k = (const void *)(m + h->key_off);
	fprintf(out, "aggregations: %u\n", h->naggs);
	for (uint32_t i = 0; i < h->naggs; i++) {
		fprintf(out, "  @%s map %s func %u key %u bytes value %u bytes keys:", S(g[i].name),
			S(g[i].map), g[i].func, g[i].key_size, g[i].val_size);
		for (uint32_t j = 0; j < g[i].nkeys; j++)
			fprintf(out, " [%u:%u %s]", k[g[i].first_key + j].offset,
				k[g[i].first_key + j].size, S(k[g[i].first_key + j].type));
		fputc('\n', out);
	}
	const struct dcc_meta_option *o = (const void *)(m + h->opt_off);
	fprintf(out, "options: %u\n", h->nopts);
	for (uint32_t i = 0; i < h->nopts; i++)
		fprintf(out, "  %s%s%s\n", S(o[i].name), o[i].value ? "=" : "", S(o[i].value));
	return 0;
}
