/*
 * Aggregations to Prometheus's text exposition format (version 0.0.4), one
 * metric family per aggregation:
 *
 *   # HELP dcc_calls count() of @calls in hello.d
 *   # TYPE dcc_calls counter
 *   dcc_calls{key0="bash"} 12
 *
 * Family names: dcc_<name>, and for the unnamed @ dcc_<function> (@ =
 * count() gives dcc_count). count() and sum() are counters (without a
 * _total suffix, so that the name is the aggregation's); min, max, avg and
 * stddev gauges, with the integer value printa() shows; quantize, lquantize
 * and llquantize histograms: cumulative _bucket{le="N"} series, where N is
 * the largest integer the bucket holds (DTrace's buckets hold integers), from
 * the lowest bucket in use (at least the one of 0) to the highest in use,
 * then le="+Inf", and _count. There is no _sum: the buckets do not keep
 * their values' sum. Key elements are labels key0, key1... or the names of
 * -x metrics_labels; label values are escaped as the format says (\\ \" \n)
 * and bytes that are not UTF-8 become U+FFFD, which Prometheus requires.
 */
#include "metrics.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcc/abi_names.h"
#include "dcc/runtime.h"

static bool label_char(char c, bool first)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (!first && c >= '0' && c <= '9');
}

void metrics_free_labels(char **names, int n)
{
	for (int i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}

int metrics_parse_labels(const char *spec, char ***names, int *n, const char **why)
{
	char **v = NULL;
	int k = 0;

	*names = NULL;
	*n = 0;
	if (!spec)
		return 0;
	for (const char *p = spec;; p++) {
		size_t len = strcspn(p, ",");
		char **grown = realloc(v, (k + 1) * sizeof(*v));

		if (!grown || !(grown[k] = strndup(p, len))) {
			metrics_free_labels(grown ? grown : v, k);
			return -ENOMEM;
		}
		v = grown;
		k++;
		*why = !len ? "an empty label name"
		       : !strcmp(v[k - 1], "le") ? "\"le\" is the histograms' bucket label"
		       : !strncmp(v[k - 1], "__", 2) ? "names starting with __ are Prometheus's"
		       : NULL;
		for (size_t i = 0; !*why && i < len; i++)
			if (!label_char(p[i], i == 0))
				*why = "a label name is letters, digits and _, not starting with a digit";
		for (int i = 0; !*why && i < k - 1; i++)
			if (!strcmp(v[i], v[k - 1]))
				*why = "a label name given twice";
		if (*why) {
			metrics_free_labels(v, k);
			return -EINVAL;
		}
		p += len;
		if (!*p)
			break;
	}
	*names = v;
	*n = k;
	return 0;
}

/* A label value: \ " and newline escaped, invalid UTF-8 as U+FFFD. */
static void label_value(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		int len = *p < 0x80 ? 1 : (*p & 0xe0) == 0xc0 ? 2 : (*p & 0xf0) == 0xe0 ? 3
			: (*p & 0xf8) == 0xf0 ? 4 : 0;
		bool ok = len > 0 && !(len == 2 && *p < 0xc2);

		for (int i = 1; ok && i < len; i++)
			ok = (p[i] & 0xc0) == 0x80;
		if (!ok) {
			fputs("\xef\xbf\xbd", f);
			p++;
			continue;
		}
		if (*p == '\\' || *p == '"')
			fprintf(f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", f);
		else
			fwrite(p, 1, len, f);
		p += len;
	}
}

struct family {
	struct dcc_runtime *rt;
	FILE *f;
	const char *name;
	char *const *labels;
	int nlabels;
	int64_t *upper; /* histogram bucket bounds */
	int nbuckets;
};

/* The key labels of an entry, '{key0="a",key1="b"' without the closing
 * brace (le may follow), malloc'd; "" for an entry without keys. */
static char *key_labels(struct family *fa, const struct dcc_agg_entry *e)
{
	char small[256], *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		return NULL;
	for (uint32_t k = 0; k < e->agg->nkeys; k++) {
		int need = dcc_runtime__agg_key_text(fa->rt, e, k, small, sizeof(small));
		char *text = small;

		if (need >= (int)sizeof(small) && (text = malloc(need + 1)))
			dcc_runtime__agg_key_text(fa->rt, e, k, text, need + 1);
		if (need < 0 || !text)
			text = small, small[0] = 0;
		fputc(k ? ',' : '{', f);
		if ((int)k < fa->nlabels)
			fprintf(f, "%s=\"", fa->labels[k]);
		else
			fprintf(f, "key%u=\"", k);
		label_value(f, text);
		fputc('"', f);
		if (text != small)
			free(text);
	}
	if (fclose(f)) {
		free(out);
		return NULL;
	}
	return out;
}

static void bucket(struct family *fa, const char *keys, int64_t upper, int64_t count)
{
	fprintf(fa->f, "%s_bucket%s%s", fa->name, *keys ? keys : "{", *keys ? "," : "");
	if (upper == INT64_MAX)
		fputs("le=\"+Inf\"}", fa->f);
	else
		fprintf(fa->f, "le=\"%lld\"}", (long long)upper);
	fprintf(fa->f, " %lld\n", (long long)count);
}

static void hist_entry(struct family *fa, const struct dcc_agg_entry *e, const char *keys)
{
	int n = fa->nbuckets < (int)e->nwords ? fa->nbuckets : (int)e->nwords, first, last, zero;
	int64_t cum = 0, total = 0;

	/* the bucket holding 0, the lowest in use and the highest in use */
	for (zero = 0; zero < n - 1 && fa->upper[zero] < 0; zero++)
		;
	for (first = 0; first < zero && !e->data[first]; first++)
		;
	for (last = n - 1; last > zero && !e->data[last]; last--)
		;
	for (int i = 0; i < n; i++) {
		total += e->data[i];
		if (i > last || i == n - 1)
			continue;
		cum += e->data[i];
		if (i >= first)
			bucket(fa, keys, fa->upper[i], cum);
	}
	bucket(fa, keys, INT64_MAX, total);
	fprintf(fa->f, "%s_count%s%s %lld\n", fa->name, keys, *keys ? "}" : "",
		(long long)total);
}

static int entry(void *ctx, const struct dcc_agg_entry *e)
{
	struct family *fa = ctx;
	char *keys = key_labels(fa, e);

	if (!keys)
		return -ENOMEM;
	if (fa->upper)
		hist_entry(fa, e, keys);
	else
		fprintf(fa->f, "%s%s%s", fa->name, keys, *keys ? "}" : "");
	free(keys);
	if (fa->upper)
		return 0;
	if (e->agg->func == DCC_AGG_STDDEV)
		fprintf(fa->f, " %llu\n", (unsigned long long)e->value);
	else
		fprintf(fa->f, " %lld\n", (long long)e->value);
	return 0;
}

static int family(struct family *fa, const struct dcc_meta_agg *a)
{
	const struct dcc_meta_header *h = dcc_runtime__meta(fa->rt);
	const char *agg = dcc_runtime__str(fa->rt, a->name);
	const char *func = abi_agg_func_name(a->func);
	const char *type = "gauge";
	char name[256];
	int err;

	snprintf(name, sizeof(name), "dcc_%s", *agg ? agg : func);
	fa->name = name;
	fa->upper = NULL;
	if (a->func == DCC_AGG_COUNT || a->func == DCC_AGG_SUM)
		type = "counter";
	else if (a->func == DCC_AGG_QUANTIZE || a->func == DCC_AGG_LQUANTIZE ||
		 a->func == DCC_AGG_LLQUANTIZE) {
		type = "histogram";
		fa->nbuckets = dcc_agg_bucket_bounds(a, NULL, 0);
		if (fa->nbuckets <= 0)
			return fa->nbuckets < 0 ? fa->nbuckets : -EINVAL;
		if (!(fa->upper = calloc(fa->nbuckets, sizeof(*fa->upper))))
			return -ENOMEM;
		dcc_agg_bucket_bounds(a, fa->upper, fa->nbuckets);
	}
	/* HELP's text escapes \ and newline; a script's name may hold either */
	const char *script = dcc_runtime__str(fa->rt, h->script);

	fprintf(fa->f, "# HELP %s %s() of @%s%s", name, func, agg, *script ? " in " : "");
	for (const char *s = script; *s; s++)
		fputs(*s == '\\' ? "\\\\" : *s == '\n' ? "\\n" : (char[2]){ *s, 0 }, fa->f);
	fprintf(fa->f, "\n# TYPE %s %s\n", name, type);
	err = dcc_runtime__agg_walk(fa->rt, a->id, entry, fa);
	free(fa->upper);
	fa->upper = NULL;
	return err;
}

char *metrics_text(struct dcc_runtime *rt, char *const *labels, int nlabels, size_t *len)
{
	const struct dcc_meta_header *h = dcc_runtime__meta(rt);
	const struct dcc_meta_agg *aggs = (const void *)((const char *)h + h->agg_off);
	struct family fa = { .rt = rt, .labels = labels, .nlabels = nlabels };
	char *text = NULL;
	int err = 0;

	fa.f = open_memstream(&text, len);
	if (!fa.f)
		return NULL;
	for (uint32_t i = 0; i < h->naggs && !err; i++)
		err = family(&fa, &aggs[i]);
	if (fclose(fa.f) && !err)
		err = -ENOMEM;
	if (err) {
		free(text);
		errno = -err;
		return NULL;
	}
	return text;
}
