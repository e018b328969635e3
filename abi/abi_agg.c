/*
 * Aggregation parameters to value sizes and bucket layouts (abi_agg.h): the
 * one place DTrace's lquantize()/llquantize() rules and llquantize's bucket
 * arithmetic are written, for sema, codegen, the metadata check and the
 * histogram printer alike.
 */
#include <stdint.h>

#include <dcc/abi.h>
#include <dcc/abi_agg.h>

/* f^e, or -1 beyond INT64_MAX (bucket bounds are signed 64-bit values) */
static int64_t ipow(int64_t f, int64_t e)
{
	int64_t r = 1;

	for (int64_t i = 0; i < e; i++) {
		if (r > INT64_MAX / f)
			return -1;
		r *= f;
	}
	return r;
}

enum abi_agg_err abi_lquantize_check(const int64_t p[4])
{
	if (p[2] <= 0)
		return ABI_LQ_STEP;
	if (p[2] > 65535)
		return ABI_LQ_STEP_MAX;
	if (p[0] >= p[1])
		return ABI_LQ_ORDER;
	if (p[0] < INT32_MIN || p[1] > INT32_MAX)
		return ABI_LQ_BOUNDS;
	if ((p[1] - p[0]) / p[2] > ABI_LQ_MAX_LEVELS)
		return ABI_LQ_LEVELS;
	if ((p[1] - p[0]) / p[2] == 0)
		return ABI_LQ_NO_LEVEL;
	return ABI_AGG_OK;
}

int64_t abi_lquantize_levels(const int64_t p[4])
{
	return (p[1] - p[0]) / p[2];
}

/* Buckets of magnitude m: b - b/factor of them, b = min(factor^(m+1), steps). */
static int64_t mag_buckets(const int64_t p[4], int64_t hi)
{
	int64_t b = hi < p[3] ? hi : p[3];

	return b - b / p[0];
}

/* n of parameters whose other rules hold; stops counting past the limit. */
static int64_t count(const int64_t p[4])
{
	int64_t n = 1;

	for (int64_t m = p[1]; m <= p[2] && n <= ABI_LLQ_MAX_BUCKETS; m++)
		n += mag_buckets(p, ipow(p[0], m + 1));
	return n;
}

enum abi_agg_err abi_llquantize_check(const int64_t p[4])
{
	int64_t f = p[0], lmag = p[1], hmag = p[2], steps = p[3];

	if (f < 2 || f > 65535)
		return ABI_LLQ_FACTOR;
	if (lmag < 0 || lmag > 65535 || hmag > 65535)
		return ABI_LLQ_MAG;
	if (lmag > hmag)
		return ABI_LLQ_MAG_ORDER;
	if (ipow(f, hmag + 1) < 0)
		return ABI_LLQ_OVERFLOW;
	if (steps <= 0 || steps > 65535)
		return ABI_LLQ_STEPS;
	if (steps < f ? f % steps : steps % f)
		return ABI_LLQ_STEPS_DIVIDE;
	if (count(p) > ABI_LLQ_MAX_BUCKETS)
		return ABI_LLQ_BUCKETS;
	return ABI_AGG_OK;
}

void abi_llquantize_mag(const int64_t p[4], int64_t m, struct abi_llq_mag *out)
{
	int64_t first = 0;

	for (int64_t k = p[1]; k < m; k++)
		first += mag_buckets(p, ipow(p[0], k + 1));
	out->lo = ipow(p[0], m);
	out->hi = out->lo * p[0];
	out->width = out->hi / (out->hi < p[3] ? out->hi : p[3]);
	out->skip = (out->hi < p[3] ? out->hi : p[3]) / p[0];
	out->first = (uint32_t)first;
	out->n = (uint32_t)mag_buckets(p, out->hi);
}

int abi_llquantize_n(const int64_t p[4])
{
	return abi_llquantize_check(p) ? -1 : (int)count(p);
}

int64_t abi_llquantize_bounds(const int64_t p[4], int64_t *b, int n)
{
	struct abi_llq_mag g;
	int j = 0;

	for (int64_t m = p[1]; m <= p[2]; m++) {
		abi_llquantize_mag(p, m, &g);
		for (uint32_t k = 0; k < g.n && j < n - 1; k++) {
			int64_t at = ((int64_t)k + g.skip) * g.width;

			b[j++] = at > g.lo ? at : g.lo;
		}
	}
	b[n - 1] = ipow(p[0], p[2] + 1);
	return ipow(p[0], p[1]);
}

int64_t abi_agg_value_size(uint32_t func, const int64_t p[4])
{
	switch (func) {
	case DCC_AGG_COUNT:
	case DCC_AGG_SUM:
		return 8;
	case DCC_AGG_AVG:
	case DCC_AGG_MIN:
	case DCC_AGG_MAX:
		return 16;
	case DCC_AGG_STDDEV:
		return 32;
	case DCC_AGG_QUANTIZE:
		return ABI_QUANTIZE_SLOTS * 8;
	case DCC_AGG_LQUANTIZE:
		if (abi_lquantize_check(p))
			return -1;
		return (abi_lquantize_levels(p) + 2) * 8;
	case DCC_AGG_LLQUANTIZE:
		if (abi_llquantize_check(p))
			return -1;
		return (2 * count(p) + 1) * 8;
	}
	return -1;
}
