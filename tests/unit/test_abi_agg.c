/*
 * headers/dcc/abi_agg.h: value sizes of every aggregation function,
 * DTrace's lquantize()/llquantize() rules, and llquantize's buckets, which
 * sema, codegen and the runtime all take from there.
 */
#include <criterion/criterion.h>
#include <dcc/abi.h>
#include <dcc/abi_agg.h>

Test(abi_agg, value_sizes)
{
	const int64_t none[4] = { 0 }, lq[4] = { 0, 100, 10 }, llq[4] = { 10, 0, 2, 10 };

	cr_expect_eq(abi_agg_value_size(DCC_AGG_COUNT, none), 8);
	cr_expect_eq(abi_agg_value_size(DCC_AGG_SUM, none), 8);
	cr_expect_eq(abi_agg_value_size(DCC_AGG_AVG, none), 16);
	cr_expect_eq(abi_agg_value_size(DCC_AGG_MIN, none), 16);
	cr_expect_eq(abi_agg_value_size(DCC_AGG_MAX, none), 16);
	cr_expect_eq(abi_agg_value_size(DCC_AGG_STDDEV, none), 32);
	cr_expect_eq(abi_agg_value_size(DCC_AGG_QUANTIZE, none), 128 * 8);
	cr_expect_eq(abi_agg_value_size(DCC_AGG_LQUANTIZE, lq), (10 + 2) * 8);
	cr_expect_eq(abi_agg_value_size(DCC_AGG_LLQUANTIZE, llq), (2 * 28 + 1) * 8);
	cr_expect_eq(abi_agg_value_size(DCC_AGG_LQUANTIZE, none), -1);
	cr_expect_eq(abi_agg_value_size(DCC_AGG_LLQUANTIZE, none), -1);
	cr_expect_eq(abi_agg_value_size(0, none), -1);
	cr_expect_eq(abi_agg_value_size(DCC_AGG_LLQUANTIZE + 1, none), -1);
}

Test(abi_agg, lquantize_rules)
{
	cr_expect_eq(abi_lquantize_check((int64_t[4]){ 0, 10, 1 }), ABI_AGG_OK);
	cr_expect_eq(abi_lquantize_check((int64_t[4]){ 0, 10, 0 }), ABI_LQ_STEP);
	cr_expect_eq(abi_lquantize_check((int64_t[4]){ 0, 10, 65536 }), ABI_LQ_STEP_MAX);
	cr_expect_eq(abi_lquantize_check((int64_t[4]){ 10, 10, 1 }), ABI_LQ_ORDER);
	cr_expect_eq(abi_lquantize_check((int64_t[4]){ INT32_MIN - 1LL, 0, 1 }), ABI_LQ_BOUNDS);
	cr_expect_eq(abi_lquantize_check((int64_t[4]){ 0, 65536, 1 }), ABI_LQ_LEVELS);
	cr_expect_eq(abi_lquantize_check((int64_t[4]){ 2, 3, 4 }), ABI_LQ_NO_LEVEL);
	cr_expect_eq(abi_lquantize_check((int64_t[4]){ 0, 10, 10 }), ABI_AGG_OK);
	cr_expect_eq(abi_lquantize_levels((int64_t[4]){ -5, 5, 3 }), 3);
}

Test(abi_agg, llquantize_rules)
{
	cr_expect_eq(abi_llquantize_check((int64_t[4]){ 10, 0, 2, 10 }), ABI_AGG_OK);
	cr_expect_eq(abi_llquantize_check((int64_t[4]){ 1, 0, 2, 10 }), ABI_LLQ_FACTOR);
	cr_expect_eq(abi_llquantize_check((int64_t[4]){ 10, -1, 2, 10 }), ABI_LLQ_MAG);
	cr_expect_eq(abi_llquantize_check((int64_t[4]){ 10, 3, 2, 10 }), ABI_LLQ_MAG_ORDER);
	/* 2^63 is no int64_t: its bucket bound could not be printed */
	cr_expect_eq(abi_llquantize_check((int64_t[4]){ 2, 0, 62, 2 }), ABI_LLQ_OVERFLOW);
	cr_expect_eq(abi_llquantize_check((int64_t[4]){ 2, 0, 61, 2 }), ABI_AGG_OK);
	cr_expect_eq(abi_llquantize_check((int64_t[4]){ 10, 0, 2, 0 }), ABI_LLQ_STEPS);
	cr_expect_eq(abi_llquantize_check((int64_t[4]){ 10, 0, 2, 3 }), ABI_LLQ_STEPS_DIVIDE);
	cr_expect_eq(abi_llquantize_check((int64_t[4]){ 2, 0, 16, 65534 }), ABI_LLQ_BUCKETS);
	cr_expect_eq(abi_llquantize_n((int64_t[4]){ 10, 0, 2, 3 }), -1);
}

Test(abi_agg, llquantize_buckets)
{
	/* llquantize(x, 10, 0, 2, 10): 1..9, 10..90, 100..900, >= 1000 */
	const int64_t p[4] = { 10, 0, 2, 10 };
	int64_t b[28];
	struct abi_llq_mag m;

	cr_assert_eq(abi_llquantize_n(p), 28);
	cr_expect_eq(abi_llquantize_bounds(p, b, 28), 1);
	cr_expect_eq(b[0], 1);
	cr_expect_eq(b[8], 9);
	cr_expect_eq(b[9], 10);
	cr_expect_eq(b[10], 20);
	cr_expect_eq(b[26], 900);
	cr_expect_eq(b[27], 1000);
	abi_llquantize_mag(p, 1, &m);
	cr_expect_eq(m.lo, 10);
	cr_expect_eq(m.hi, 100);
	cr_expect_eq(m.width, 10);
	cr_expect_eq(m.first, 9);
	cr_expect_eq(m.n, 9);
}

Test(abi_agg, llquantize_steps_wider_than_a_magnitude)
{
	/* llquantize(x, 2, 1, 3, 4): 2 3 | 4 6 | 8 12 | >= 16, below 2 in the middle */
	const int64_t p[4] = { 2, 1, 3, 4 }, want[] = { 2, 3, 4, 6, 8, 12, 16 };
	int64_t b[7];

	cr_assert_eq(abi_llquantize_n(p), 7);
	cr_expect_eq(abi_llquantize_bounds(p, b, 7), 2);
	for (int i = 0; i < 7; i++)
		cr_expect_eq(b[i], want[i], "bucket %d", i);
	cr_expect_eq(abi_agg_value_size(DCC_AGG_LLQUANTIZE, p), 15 * 8);
}

Test(abi_agg, llquantize_fewer_steps_than_factor)
{
	/* llquantize(x, 10, 1, 2, 5): a magnitude is cut at multiples of
	 * factor^(m+1) / 5, its first bucket reaching down to factor^m:
	 * 10 20 40 60 80 | 100 200 400 600 800 | >= 1000 */
	const int64_t p[4] = { 10, 1, 2, 5 };
	const int64_t want[] = { 10, 20, 40, 60, 80, 100, 200, 400, 600, 800, 1000 };
	int64_t b[11];
	struct abi_llq_mag m;

	cr_assert_eq(abi_llquantize_n(p), 11);
	cr_expect_eq(abi_llquantize_bounds(p, b, 11), 10);
	for (int i = 0; i < 11; i++)
		cr_expect_eq(b[i], want[i], "bucket %d", i);
	abi_llquantize_mag(p, 2, &m);
	cr_expect_eq(m.width, 200);
	cr_expect_eq(m.skip, 0);
	cr_expect_eq(m.first, 5);
	/* 320 is in bucket first + 320 / 200 - skip: the one starting at 200 */
	cr_expect_eq(m.first + 320 / m.width - m.skip, 6);
	cr_expect_eq(b[6], 200);
}
