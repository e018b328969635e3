/*
 * Histogram values (quantize, lquantize, llquantize) to DTrace's distribution
 * block: the value/count header, the rows from one bucket before the first
 * non-zero bucket to one after the last, 40-column '@' bars (half bars around
 * a centre line when counts of both signs are shown), and the sort weight.
 * With aggpack, quantize and lquantize rows are packed on one line instead:
 * one character a bucket over the range every key of the aggregation shares.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <dcc/abi_agg.h>
#include "rt.h"

#define QZERO ABI_QUANTIZE_ZERO
#define QNBUCKETS ABI_QUANTIZE_BUCKETS

static int64_t qval(int i)
{
	if (i < QZERO)
		return -(int64_t)(1ULL << (QZERO - 1 - i));
	return i == QZERO ? 0 : (int64_t)(1ULL << (i - QZERO - 1));
}

static long double fabsld(long double x)
{
	return x < 0 ? -x : x;
}

void rt_hist_bar(FILE *out, int64_t val, long double total, bool pos, bool neg, int64_t normal)
{
	static const char ats[] = "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@";
	static const char spaces[] = "                                        ";
	unsigned len = 40, depth;

	if (!neg) {
		depth = pos ? (unsigned)(fabsld((long double)val) * len / total + 0.5) : 0;
		fprintf(out, "|%s%s %-9lld\n", ats + len - depth, spaces + depth,
			(long long)(val / normal));
		return;
	}
	if (!pos) {
		depth = (unsigned)(fabsld((long double)val) * len / total + 0.5);
		fprintf(out, "%s%s| %-9lld\n", spaces + depth, ats + len - depth,
			(long long)(val / normal));
		return;
	}
	len /= 2;
	depth = (unsigned)(fabsld((long double)val) * len / total + 0.5);
	if (val <= 0)
		fprintf(out, "%s%s|%*s %-9lld\n", spaces + 40 - len + depth, ats + 40 - depth,
			(int)len, "", (long long)(val / normal));
	else
		fprintf(out, "%20s|%s%s %-9lld\n", "", ats + 40 - depth, spaces + 40 - len + depth,
			(long long)(val / normal));
}

/* Rows [*first, *last] to show; the all-zero case shows [zlo, zlo + 2]. */
static void range(const int64_t *d, int n, int zlo, int *first, int *last)
{
	int f = 0, l = n - 1;

	while (f < n && d[f] == 0)
		f++;
	if (f == n) {
		*first = zlo < 0 ? 0 : zlo;
		*last = *first + 2 < n ? *first + 2 : n - 1;
		return;
	}
	while (l > 0 && d[l] == 0)
		l--;
	*first = f > 0 ? f - 1 : 0;
	*last = l < n - 1 ? l + 1 : n - 1;
}

static void print_rows(FILE *out, const struct hist_row *r, int n, int64_t normal, bool zoom)
{
	long double total = 0;
	bool pos = false, neg = false;

	for (int i = 0; i < n; i++) {
		pos |= r[i].count > 0;
		neg |= r[i].count < 0;
		/* aggzoom: the highest bar at 95% of the width, as DTrace does */
		if (!zoom)
			total += fabsld((long double)r[i].count);
		else if (total < fabsld((long double)r[i].count) / 0.95L)
			total = fabsld((long double)r[i].count) / 0.95L;
	}
	fprintf(out, "\n%16s %41s %-9s\n", "value", "------------- Distribution -------------",
		"count");
	for (int i = 0; i < n; i++) {
		fprintf(out, "%16s ", r[i].label);
		rt_hist_bar(out, r[i].count, total, pos, neg, normal);
	}
}

static int quantize(const int64_t *d, struct hist_row *r)
{
	int first = 0, last = QNBUCKETS - 1, n = 0;

	/* no data at all: the buckets around 0; data only in the last
	 * bucket (2^62 and above) is shown like any other */
	while (first < QNBUCKETS && d[first] == 0)
		first++;
	if (first == QNBUCKETS) {
		first = QZERO - 1;
		last = QZERO + 1;
	} else {
		if (first > 0)
			first--;
		while (last > 0 && d[last] == 0)
			last--;
		if (last < QNBUCKETS - 1)
			last++;
	}
	for (int i = first; i <= last; i++, n++) {
		snprintf(r[n].label, sizeof(r[n].label), "%lld", (long long)qval(i));
		r[n].count = d[i];
	}
	return n;
}

static int lquantize(const struct dcc_meta_agg *a, const int64_t *d, struct hist_row *r)
{
	int64_t lo = a->param[0], step = a->param[2];
	int levels = (int)abi_lquantize_levels(a->param), first, last, n = 0;

	range(d, levels + 2, 0, &first, &last);
	for (int i = first; i <= last; i++, n++) {
		if (i == 0)
			snprintf(r[n].label, sizeof(r[n].label), "< %lld", (long long)lo);
		else if (i == levels + 1)
			snprintf(r[n].label, sizeof(r[n].label), ">= %lld",
				 (long long)(lo + levels * step));
		else
			snprintf(r[n].label, sizeof(r[n].label), "%lld",
				 (long long)(lo + (i - 1) * step));
		r[n].count = d[i];
	}
	return n;
}

/* The lower bounds of llquantize's n positive buckets (the last: overflow)
 * and factor^lmag; NULL without memory. */
static int64_t *llq_bounds(const struct dcc_meta_agg *a, int n, int64_t *under)
{
	int64_t *b = calloc(n, sizeof(*b));

	if (b)
		*under = abi_llquantize_bounds(a->param, b, n);
	return b;
}

static int llquantize(const struct dcc_meta_agg *a, const int64_t *d, struct hist_row *r)
{
	int n = abi_llquantize_n(a->param), first, last, k = 0;
	int64_t under, *b;

	if (n < 0 || !(b = llq_bounds(a, n, &under)))
		return 0;
	range(d, 2 * n + 1, n, &first, &last);
	for (int i = first; i <= last; i++, k++) {
		char *l = r[k].label;
		size_t ln = sizeof(r[k].label);

		if (i == n && under == 1)
			snprintf(l, ln, "0");
		else if (i == n)
			/* as DTrace labels it: "abs()" when rows of negative
			 * values are shown above it, empty or not */
			snprintf(l, ln, "%s< %lld", first < n ? "abs() " : "", (long long)under);
		else if (i == 2 * n)
			snprintf(l, ln, ">= %lld", (long long)b[n - 1]);
		else if (i == 0)
			snprintf(l, ln, "<= -%lld", (long long)b[n - 1]);
		else if (i > n)
			snprintf(l, ln, "%lld", (long long)b[i - n - 1]);
		else
			snprintf(l, ln, "%lld", -(long long)b[n - 1 - i]);
		r[k].count = d[i];
	}
	free(b);
	return k;
}

/* The rows a histogram shows; *rows is malloc'd. Returns the count or -1. */
int rt_hist_rows(const struct dcc_meta_agg *a, const int64_t *val, struct hist_row **rows)
{
	struct hist_row *r = calloc(rt_agg_nwords(a) + 1, sizeof(*r));
	int n = 0;

	if (!r)
		return -1;
	switch (a->func) {
	case DCC_AGG_QUANTIZE:
		n = quantize(val, r);
		break;
	case DCC_AGG_LQUANTIZE:
		n = lquantize(a, val, r);
		break;
	case DCC_AGG_LLQUANTIZE:
		n = llquantize(a, val, r);
		break;
	}
	*rows = r;
	return n;
}

void rt_hist_print(struct dcc_runtime *rt, FILE *out, const struct dcc_meta_agg *a,
		   const int64_t *val, int64_t normal)
{
	struct hist_row *rows;
	int n = rt_hist_rows(a, val, &rows);

	if (n >= 0)
		print_rows(out, rows, n, normal < 1 ? 1 : normal, rt->aggzoom);
	free(rows);
}

long double rt_hist_weight(const struct dcc_meta_agg *a, const int64_t *d, int64_t *zero)
{
	long double w = 0;

	*zero = 0;
	if (a->func == DCC_AGG_QUANTIZE) {
		for (int i = 0; i < QNBUCKETS; i++)
			w += (long double)qval(i) * (long double)d[i];
		*zero = d[QZERO];
	} else if (a->func == DCC_AGG_LQUANTIZE) {
		int64_t base = a->param[0], step = a->param[2];
		int levels = (int)abi_lquantize_levels(a->param);

		w = (long double)d[0] * (long double)(base - 1);
		if (base - 1 == 0)
			*zero = d[0];
		for (int i = 0; i < levels; base += step, i++) {
			w += (long double)d[i + 1] * (long double)base;
			if (base == 0)
				*zero = d[i + 1];
		}
		w += (long double)d[levels + 1] * (long double)(base + 1);
		if (base + 1 == 0)
			*zero = d[levels + 1];
	} else if (a->func == DCC_AGG_LLQUANTIZE) {
		int n = abi_llquantize_n(a->param);
		int64_t under, *b;

		if (n < 0 || !(b = llq_bounds(a, n, &under)))
			return 0;
		for (int j = 0; j < n; j++)
			w += (long double)b[j] *
			     ((long double)d[n + 1 + j] - (long double)d[n - 1 - j]);
		if (under == 1)
			*zero = d[n];
		free(b);
	}
	return w;
}

/* Digits of v (a minus sign counts), at least 4: the packed range labels'
 * width, as DTrace's dt_ndigits counts them (10 has one digit, 11 two). */
static int ndigits(long long v)
{
	long long cmp = 10;
	int n = 1;

	if (v < 0) {
		v = v == INT64_MIN ? INT64_MAX : -v;
		n++;
	}
	/* 10^18 is the last power of ten an int64 holds: every v past it has
	 * 19 digits (DTrace's loop ends there by a signed overflow) */
	while (v > cmp) {
		n++;
		if (cmp > LLONG_MAX / 10)
			break;
		cmp *= 10;
	}
	return n < 4 ? 4 : n;
}

void rt_hist_packed_bins(const struct dcc_meta_agg *a, const int64_t *d, int *minbin,
			 int *maxbin)
{
	int lo = -1, hi = -1;

	if (a->func == DCC_AGG_LQUANTIZE) {
		/* the whole range, always */
		*minbin = 0;
		*maxbin = (int)((a->param[1] - a->param[0]) / a->param[2]) + 1;
		return;
	}
	for (int i = 0; i < QNBUCKETS; i++) {
		if (!d[i])
			continue;
		if (lo < 0)
			lo = i;
		hi = i;
	}
	if (lo < 0)
		lo = hi = QZERO; /* no data: the zero bucket */
	*minbin = lo;
	*maxbin = hi;
}

/* quantize's shown range: one bucket either side of the data, but never
 * below the zero bucket when the data starts there */
static void qrange(int *lo, int *hi)
{
	if (*lo != 0 && *lo != QZERO)
		(*lo)--;
	if (*hi < QNBUCKETS - 1)
		(*hi)++;
}

void rt_hist_packed_header(FILE *out, const struct dcc_meta_agg *a, int keywidth, int minbin,
			   int maxbin)
{
	int minw = 7, maxw = 8, lo = minbin, hi = maxbin;

	if (a->func == DCC_AGG_QUANTIZE) {
		qrange(&lo, &hi);
		minw = ndigits(qval(lo));
		maxw = ndigits(qval(hi));
	}
	fprintf(out, "\n%*s %*s .", keywidth, keywidth > 0 ? "key" : "", minw, "min");
	for (int i = lo; i <= hi; i++)
		fputc('-', out);
	fprintf(out, ". %*s | count\n", -maxw, "max");
}

/* One bucket's character: its share of the row's total in 8 levels (block
 * elements U+2581..U+2588, or "__xxxxXX"), "vvvvVV" below zero, blank at 0. */
static void packed_char(FILE *out, int64_t datum, long double total, bool utf8)
{
	static const char ascii[] = "__xxxxXX", neg[] = "vvvvVV";

	if (datum == 0) {
		fputc(' ', out);
	} else if (datum < 0) {
		long double v = fabsld((long double)datum * (sizeof(neg) - 2)) / total;

		fputc(neg[(unsigned)(v + 0.5)], out);
	} else if (utf8) {
		unsigned block = 0x2581 + (unsigned)((long double)datum * 7 / total + 0.5);

		fputc(0xe0 | (block >> 12), out);
		fputc(0x80 | ((block >> 6) & 0x3f), out);
		fputc(0x80 | (block & 0x3f), out);
	} else {
		fputc(ascii[(unsigned)((long double)datum * (sizeof(ascii) - 2) / total + 0.5)],
		      out);
	}
}

void rt_hist_packed_row(struct dcc_runtime *rt, FILE *out, const struct dcc_meta_agg *a,
			const int64_t *d, int minbin, int maxbin)
{
	long double total = 0;
	uint64_t count = 0; /* as DTrace's int64 sum, wrapping without a signed overflow */
	int lo = minbin, hi = maxbin;
	char label[48];

	if (a->func == DCC_AGG_QUANTIZE) {
		qrange(&lo, &hi);
		fprintf(out, " %*lld :", ndigits(qval(lo)), (long long)qval(lo));
	} else {
		snprintf(label, sizeof(label), "< %lld", (long long)a->param[0]);
		fprintf(out, "%8s :", label);
	}
	for (int i = lo; i <= hi; i++) {
		long double v = fabsld((long double)d[i]);

		/* aggzoom: the highest bucket at 95% */
		if (!rt->aggzoom)
			total += v;
		else if (total < v / 0.95L)
			total = v / 0.95L;
		count += (uint64_t)d[i];
	}
	for (int i = lo; i <= hi; i++)
		packed_char(out, d[i], total, rt->utf8);
	if (a->func == DCC_AGG_QUANTIZE) {
		fprintf(out, ": %*lld | %lld\n", -ndigits(qval(hi)), (long long)qval(hi),
			(long long)count);
	} else {
		int64_t lo_v = a->param[0], step = a->param[2];

		snprintf(label, sizeof(label), ">= %lld",
			 (long long)(lo_v + (a->param[1] - lo_v) / step * step));
		fprintf(out, ": %-8s | %lld\n", label, (long long)count);
	}
}

/* Buckets hold integers, so [lo, next) is "at most next - 1". */
int dcc_agg_bucket_bounds(const struct dcc_meta_agg *a, int64_t *upper, int n)
{
	int nb = rt_agg_nwords(a);

	if (!rt_agg_is_hist(a))
		return -EINVAL;
	/* a quantize value's overflow slot (ABI_QUANTIZE_SLOTS) is not a bucket:
	 * the consumer folds it into bucket 0 */
	if (a->func == DCC_AGG_QUANTIZE && nb > QNBUCKETS)
		nb = QNBUCKETS;
	if (a->func == DCC_AGG_QUANTIZE) {
		for (int i = 0; i < nb && i < n; i++)
			upper[i] = i <= QZERO ? qval(i) : i == nb - 1 ? INT64_MAX : qval(i + 1) - 1;
	} else if (a->func == DCC_AGG_LQUANTIZE) {
		int64_t lo = a->param[0], step = a->param[2];

		for (int i = 0; i < nb && i < n; i++)
			upper[i] = i == nb - 1 ? INT64_MAX : lo + i * step - 1;
	} else {
		int k = abi_llquantize_n(a->param);
		int64_t under, *b;

		if (k < 0)
			return -EINVAL;
		if (!(b = llq_bounds(a, k, &under)))
			return -ENOMEM;
		/* bucket k holds |v| < under; k+1+j [b[j], b[j+1]); k-1-j its negation */
		for (int i = 0; i < nb && i < n; i++)
			upper[i] = i == k ? under - 1 : i == nb - 1 ? INT64_MAX
				 : i > k ? b[i - k] - 1 : -b[k - 1 - i];
		free(b);
	}
	return nb;
}
