/*
 * Aggregation values as both sides of an object size and index them: the
 * bytes of one CPU's value for each function (the layouts abi.h describes),
 * DTrace's rules for lquantize() and llquantize() parameters, and
 * llquantize's buckets. The compiler checks the parameters and lays out the
 * maps with these; the runtime checks an object's metadata and labels the
 * histogram rows with the same ones.
 */
#ifndef DCC_ABI_AGG_H
#define DCC_ABI_AGG_H

#include <stdint.h>

#define ABI_QUANTIZE_BUCKETS 127
/* quantize's value: the buckets and one slot more, where programs made
 * from 2026-11-27 to 11-28 counted -2^63 (whose magnitude's bucket, 64 + 63,
 * is one past the last) so that a mask bounded the index; the consumer adds
 * it to bucket 0, -2^63's own. Programs since count -2^63 in bucket 0 (a
 * table lookup) and the slot keeps the mask, which the verifier needs, in
 * bounds. Objects made before it have ABI_QUANTIZE_BUCKETS slots. */
#define ABI_QUANTIZE_SLOTS 128
/* quantize's bucket of 0; 64 + k holds [2^k, 2^(k+1)), 62 - k (-2^(k+1), -2^k] */
#define ABI_QUANTIZE_ZERO 63
#define ABI_LQ_MAX_LEVELS 65535
#define ABI_LLQ_MAX_BUCKETS 65535 /* n, the positive buckets */
/* An aggregation's map: one entry per aggsize / (key + value + this), and
 * at most ABI_AGG_MAX_ENTRIES (the kernel's bucket array, 16 bytes an entry,
 * stays within a few tens of MB); the consumer reports an aggsize this
 * lowers (bufresize). */
#define ABI_AGG_ENTRY_OVERHEAD 64
#define ABI_AGG_MAX_ENTRIES (1u << 22)

/* The first rule a histogram's parameters break (sema words each one). */
enum abi_agg_err {
	ABI_AGG_OK = 0,
	ABI_LQ_STEP,          /* step <= 0 */
	ABI_LQ_STEP_MAX,      /* step > 65535 */
	ABI_LQ_ORDER,         /* hi <= lo */
	ABI_LQ_BOUNDS,        /* lo or hi beyond 32 bits */
	ABI_LQ_LEVELS,        /* more than ABI_LQ_MAX_LEVELS levels */
	ABI_LQ_NO_LEVEL,      /* step wider than hi - lo: not one level */
	ABI_LLQ_FACTOR,       /* factor not in 2..65535 */
	ABI_LLQ_MAG,          /* a magnitude not in 0..65535 */
	ABI_LLQ_MAG_ORDER,    /* lmag > hmag */
	ABI_LLQ_OVERFLOW,     /* factor^(hmag+1) beyond INT64_MAX */
	ABI_LLQ_STEPS,        /* steps not in 1..65535 */
	ABI_LLQ_STEPS_DIVIDE, /* steps neither divides nor is a multiple of factor */
	ABI_LLQ_BUCKETS,      /* more than ABI_LLQ_MAX_BUCKETS buckets */
};

/* p[] = lo, hi, step (lquantize) or factor, lmag, hmag, steps (llquantize) */
enum abi_agg_err abi_lquantize_check(const int64_t p[4]);
enum abi_agg_err abi_llquantize_check(const int64_t p[4]);

/* lquantize's levels (hi - lo) / step; its value has levels + 2 buckets. */
int64_t abi_lquantize_levels(const int64_t p[4]);

/* One magnitude m (lmag <= m <= hmag) of a checked llquantize: the values
 * [lo, hi) fall into buckets first .. first + n - 1 of the n ascending
 * positive buckets. As DTrace cuts a magnitude: at the multiples of `width`
 * (hi / min(hi, steps)), the `skip` multiples below lo left out; so value v
 * is in bucket first + v / width - skip, and bucket k starts at
 * max(lo, (k + skip) * width). With fewer steps than the factor the first
 * bucket is [lo, width), wider than the others. */
struct abi_llq_mag {
	int64_t lo, hi, width, skip;
	uint32_t first, n;
};
void abi_llquantize_mag(const int64_t p[4], int64_t m, struct abi_llq_mag *out);

/* n, the number of positive buckets (the last: values >= factor^(hmag+1));
 * the value has 2n + 1 buckets. -1 when the parameters break a rule. */
int abi_llquantize_n(const int64_t p[4]);

/* The lower bounds of the n positive buckets into b[0 .. n); returns
 * factor^lmag, below which values go to the middle bucket. */
int64_t abi_llquantize_bounds(const int64_t p[4], int64_t *b, int n);

/* Bytes of one CPU's value of enum dcc_agg_func func with parameters p, or
 * -1 for an unknown function or parameters that break a rule. */
int64_t abi_agg_value_size(uint32_t func, const int64_t p[4]);

#endif
