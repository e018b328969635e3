/*
 * The default printa() form under the options that change its shape, from
 * real per-CPU maps: aggpack (one packed line a key, UTF-8 or ASCII blocks,
 * the bucket range every key shares, negative counts), agghist (values as
 * bars under one header, both signs, aggzoom) and aggpercpu (each CPU's
 * value under the merged one). The expected bytes follow DTrace's
 * dt_print_quantize_packed/dt_print_quanthdr and DTrace for Linux's
 * "[CPU n]" lines, worked out by hand in the comments.
 */
#include "unit/rt_build.h"
#include "unit/rt_agg_maps.h"

TestSuite(rt_aggmodes, .init = setup, .fini = teardown);

/* @[s] = quantize(): "a" holds 1 once (CPU 0) and 4 three times (CPU 1),
 * "b" holds 64 twice. The shared range is buckets 1..64 widened by one on
 * each side: 0..128, nine buckets. */
static void packed_quantize(const char *encoding, const char *want)
{
	const char *x[] = { "aggpack", encoding };
	int64_t *a = buckets(127), *c = buckets(127);
	struct skey k;
	struct rtt t;
	struct mb b;
	int fd;

	mb_init(&b);
	mb_agg(&b, "", "m", DCC_AGG_QUANTIZE, 127 * 8);
	mb_key(&b, DCC_K_STRING, 16, 0);
	cr_assert_eq(rtt_open(&t, &b, false, x, 2), 0, "%s", rtt_err(&t));
	fd = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 16, 127 * 8);
	a[64] = 1;
	c[66] = 3;
	k = sk("a", 0);
	put(fd, &k, 127, a, c);
	memset(a, 0, 127 * 8);
	a[70] = 2;
	k = sk("b", 0);
	put(fd, &k, 127, a, NULL);
	dcc_runtime__set_agg_fd(t.rt, 0, fd);
	cr_assert_eq(dcc_runtime__print_aggs(t.rt), 0);
	cr_assert_str_eq(rtt_out(&t), want);
	free(a);
	free(c);
	rtt_close(&t);
}

Test(rt_aggmodes, aggpack_quantize_ascii)
{
	/* a: 1 of 4 -> level (1*7/4 + .5) = 2 'x'; 3 of 4 -> 5 'x'. b: 2 of 2 -> 7 'X' */
	packed_quantize("encoding=ascii",
		"\n"
		"\n              key  min .---------. max  | count\n"
		"                a    0 : x x     : 128  | 4\n"
		"                b    0 :       X : 128  | 2\n");
}

Test(rt_aggmodes, aggpack_quantize_utf8)
{
	/* the same levels as block elements U+2581 + level */
	packed_quantize("encoding=utf8",
		"\n"
		"\n              key  min .---------. max  | count\n"
		"                a    0 : \u2583 \u2586     : 128  | 4\n"
		"                b    0 :       \u2588 : 128  | 2\n");
}

Test(rt_aggmodes, aggpack_lquantize_whole_range_with_negative_counts)
{
	/* lquantize(x, 0, 10, 2): < 0, 0, 2, 4, 6, 8, >= 10 -> seven buckets,
	 * always all of them. Total |1|+|2|+|-1| = 4, count 1+2-1 = 2:
	 * 1 -> 'x' (level 2), 2 -> 'x' (level 4), -1 -> "vvvvVV"[1.25+.5] 'v' */
	const char *x[] = { "aggpack", "encoding=ascii" };
	int64_t d[7] = { 1, 0, 2, 0, 0, 0, -1 };
	struct rtt t;
	struct mb b;
	int fd;

	mb_init(&b);
	mb_agg(&b, "", "m", DCC_AGG_LQUANTIZE, 7 * 8);
	b.aggs[0].param[0] = 0;
	b.aggs[0].param[1] = 10;
	b.aggs[0].param[2] = 2;
	cr_assert_eq(rtt_open(&t, &b, false, x, 2), 0, "%s", rtt_err(&t));
	fd = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 4, 7 * 8);
	put(fd, &zero_key, 7, d, NULL);
	dcc_runtime__set_agg_fd(t.rt, 0, fd);
	cr_assert_eq(dcc_runtime__print_aggs(t.rt), 0);
	cr_assert_str_eq(rtt_out(&t),
		"\n"
		"\n     min .-------. max      | count\n"
		"     < 0 :x x   v: >= 10    | 2\n");
	rtt_close(&t);
}

/* @[s] = count(): ls 1, bash 3 (split over the CPUs). */
static void hist_counts(const char *const *x, int nx, const char *want)
{
	struct skey k;
	struct rtt t;
	struct mb b;
	int fd;

	mb_init(&b);
	mb_agg(&b, "", "m", DCC_AGG_COUNT, 8);
	mb_key(&b, DCC_K_STRING, 16, 0);
	cr_assert_eq(rtt_open(&t, &b, false, x, nx), 0, "%s", rtt_err(&t));
	fd = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 16, 8);
	k = sk("ls", 0);
	put1(fd, &k, 1, 0);
	k = sk("bash", 0);
	put1(fd, &k, 1, 2);
	dcc_runtime__set_agg_fd(t.rt, 0, fd);
	cr_assert_eq(dcc_runtime__print_aggs(t.rt), 0);
	cr_assert_str_eq(rtt_out(&t), want);
	rtt_close(&t);
}

Test(rt_aggmodes, agghist_counts_share_one_total)
{
	/* total 4: ls 1*40/4 = 10 '@', bash 30 */
	const char *x[] = { "agghist" };

	hist_counts(x, 1,
		"\n"
		"\n              key  ------------- Distribution ------------- count    \n"
		"               ls |@@@@@@@@@@                               1        \n"
		"             bash |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@           3        \n");
}

Test(rt_aggmodes, aggpack_leaves_counts_alone)
{
	const char *x[] = { "aggpack" };

	hist_counts(x, 1, fmt("\n  %-50s %16d\n  %-50s %16d\n", "ls", 1, "bash", 3));
}

Test(rt_aggmodes, agghist_with_aggzoom)
{
	/* zoom: total = (int64)(3 / 0.95) = 3, so bash fills the bar and ls
	 * gets 40/3 + .5 = 13 */
	const char *x[] = { "agghist", "aggzoom" };

	hist_counts(x, 2,
		"\n"
		"\n              key  ------------- Distribution ------------- count    \n"
		"               ls |@@@@@@@@@@@@@                            1        \n"
		"             bash |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 3        \n");
}

Test(rt_aggmodes, agghist_total_past_int64_max)
{
	/* two sums of 3 * 2^61: their total, 3 * 2^62, is past INT64_MAX (it
	 * was summed in int64_t: signed overflow, found by fuzz_consumer; the
	 * wrapped, negative total made bars of billions of '@'). Each is half
	 * of it: 20 '@' */
	const char *x[] = { "agghist" };
	int64_t k1 = 1, k2 = 2, v = 3LL << 61;
	struct rtt t;
	struct mb b;
	int fd;

	mb_init(&b);
	mb_agg(&b, "", "m", DCC_AGG_SUM, 8);
	mb_key(&b, DCC_K_INT, 4, 1);
	cr_assert_eq(rtt_open(&t, &b, false, x, 1), 0, "%s", rtt_err(&t));
	fd = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 8, 8);
	put1(fd, &k1, v, 0);
	put1(fd, &k2, v, 0);
	dcc_runtime__set_agg_fd(t.rt, 0, fd);
	cr_assert_eq(dcc_runtime__print_aggs(t.rt), 0);
	cr_assert_str_eq(rtt_out(&t),
		"\n"
		"\n      key  ------------- Distribution ------------- count    \n"
		"        1 |@@@@@@@@@@@@@@@@@@@@                     6917529027641081856\n"
		"        2 |@@@@@@@@@@@@@@@@@@@@                     6917529027641081856\n");
	rtt_close(&t);
}

Test(rt_aggmodes, agghist_sums_of_both_signs)
{
	/* int keys (width 8 + 1); total |-2| + 6 = 8; half bars of 20:
	 * -2 -> 5 '@' left of the centre, 6 -> 15 right of it */
	const char *x[] = { "agghist" };
	int64_t k1 = 1, k2 = 2; /* keys are 8-byte slots; the int is their first 4 */
	struct rtt t;
	struct mb b;
	int fd;

	mb_init(&b);
	mb_agg(&b, "", "m", DCC_AGG_SUM, 8);
	mb_key(&b, DCC_K_INT, 4, 1);
	cr_assert_eq(rtt_open(&t, &b, false, x, 1), 0, "%s", rtt_err(&t));
	fd = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 8, 8);
	put1(fd, &k1, -2, 0);
	put1(fd, &k2, 4, 2);
	dcc_runtime__set_agg_fd(t.rt, 0, fd);
	cr_assert_eq(dcc_runtime__print_aggs(t.rt), 0);
	cr_assert_str_eq(rtt_out(&t),
		"\n"
		"\n      key  ------------- Distribution ------------- count    \n"
		"        1                @@@@@|                     -2       \n"
		"        2                     |@@@@@@@@@@@@@@@      6        \n");
	rtt_close(&t);
}

/* "\n    [CPU c]" and the value for every CPU; CPUs past the second hold 0. */
static const char *percpu_lines(const int64_t *v)
{
	static char buf[4096];
	size_t n = 0;

	buf[0] = 0;
	for (int c = 0; c < ncpu && n < sizeof(buf) - 64; c++)
		n += snprintf(buf + n, sizeof(buf) - n, "\n    [CPU %d] %16lld", c,
			      (long long)(c < 2 ? v[c] : 0));
	return buf;
}

Test(rt_aggmodes, aggpercpu_counts_and_averages)
{
	const char *x[] = { "aggpercpu" };
	struct rtt t;
	struct mb b;
	int fc, fa;

	mb_init(&b);
	mb_agg(&b, "c", "m0", DCC_AGG_COUNT, 8);
	mb_agg(&b, "a", "m1", DCC_AGG_AVG, 16);
	cr_assert_eq(rtt_open(&t, &b, false, x, 1), 0, "%s", rtt_err(&t));
	fc = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 4, 8);
	fa = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 4, 16);
	put1(fc, &zero_key, 3, 4);
	/* CPU 0: 2 values summing 10 (avg 5); CPU 1: 1 value, 40; merged 50/3 */
	put(fa, &zero_key, 2, (int64_t[]){ 2, 10 }, (int64_t[]){ 1, 40 });
	dcc_runtime__set_agg_fd(t.rt, 0, fc);
	dcc_runtime__set_agg_fd(t.rt, 1, fa);
	cr_assert_eq(dcc_runtime__print_aggs(t.rt), 0);
	char *want = strdup(fmt("\n %16d%s\n", 7, percpu_lines((int64_t[]){ 3, 4 })));
	cr_assert_str_eq(rtt_out(&t),
			 fmt("%s %16d%s\n", want, 16, percpu_lines((int64_t[]){ 5, 40 })));
	free(want);
	rtt_close(&t);
}

Test(rt_aggmodes, aggpercpu_packed_rows_label_the_key_column)
{
	const char *x[] = { "agghist", "aggpercpu" };
	struct skey k = sk("ls", 0);
	char want[4096];
	size_t n;
	struct rtt t;
	struct mb b;
	int fd;

	mb_init(&b);
	mb_agg(&b, "", "m", DCC_AGG_COUNT, 8);
	mb_key(&b, DCC_K_STRING, 16, 0);
	cr_assert_eq(rtt_open(&t, &b, false, x, 2), 0, "%s", rtt_err(&t));
	fd = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 16, 8);
	put1(fd, &k, 0, 2);
	dcc_runtime__set_agg_fd(t.rt, 0, fd);
	cr_assert_eq(dcc_runtime__print_aggs(t.rt), 0);
	n = (size_t)snprintf(want, sizeof(want),
		"\n"
		"\n              key  ------------- Distribution ------------- count    \n"
		"               ls |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 2        \n");
	for (int c = 0; c < ncpu; c++)
		n += (size_t)snprintf(want + n, sizeof(want) - n, "%17s |%s %-9d\n",
				      fmt("    [CPU %d]", c),
				      c == 1 ? "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@"
					     : "                                        ",
				      c == 1 ? 2 : 0);
	cr_assert_str_eq(rtt_out(&t), want);
	rtt_close(&t);
}

Test(rt_aggmodes, bad_encoding_is_refused)
{
	const char *x[] = { "encoding=ebcdic" };
	struct rtt t;
	struct mb b;

	mb_init(&b);
	mb_agg(&b, "", "m", DCC_AGG_COUNT, 8);
	cr_assert_neq(rtt_open(&t, &b, false, x, 1), 0);
	cr_assert_str_eq(rtt_err(&t), "dtrun: failed to set -x encoding=ebcdic: Invalid value "
				      "for specified option\n");
	rtt_close(&t);
}

Test(rt_aggmodes, a_map_of_other_sizes_than_the_metadata_is_refused)
{
	/* an object whose map disagrees with its metadata would be read out
	 * of bounds: the runtime refuses the map, naming both sizes */
	struct rtt t;
	struct mb b;
	int fd;

	mb_init(&b);
	mb_agg(&b, "lat", "agg_lat", DCC_AGG_SUM, 8);
	mb_key(&b, DCC_K_INT, 4, 1);
	cr_assert_eq(rtt_open(&t, &b, false, NULL, 0), 0, "%s", rtt_err(&t));
	fd = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 16, 8);
	cr_assert_eq(dcc_runtime__set_agg_fd(t.rt, 0, fd), -EINVAL);
	cr_assert_str_eq(rtt_err(&t), "dtrun: the map of aggregation @lat has 16-byte keys and "
				      "8-byte values, its metadata says 8 and 8\n");
	close(fd);
	rtt_close(&t);
}

/* @ = quantize() with the buckets set in a (keyless), printed packed in ASCII */
static void packed_keyless(int64_t *a, const char *want)
{
	const char *x[] = { "aggpack", "encoding=ascii" };
	struct rtt t;
	struct mb b;
	int fd;

	mb_init(&b);
	mb_agg(&b, "", "m", DCC_AGG_QUANTIZE, 127 * 8);
	cr_assert_eq(rtt_open(&t, &b, false, x, 2), 0, "%s", rtt_err(&t));
	fd = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 4, 127 * 8);
	put(fd, &zero_key, 127, a, NULL);
	dcc_runtime__set_agg_fd(t.rt, 0, fd);
	cr_assert_eq(dcc_runtime__print_aggs(t.rt), 0);
	cr_assert_str_eq(rtt_out(&t), want);
	free(a);
	rtt_close(&t);
}

Test(rt_aggmodes, aggpack_labels_past_ten_to_the_18th)
{
	/* @ = quantize(3 << 61): bucket 2^61, shown from 2^60 to 2^62. The
	 * header's width of those labels counted digits by multiplying a power
	 * of ten past INT64_MAX (signed overflow, found by fuzz_consumer) */
	int64_t *a = buckets(127);

	a[125] = 1;
	packed_keyless(a,
		"\n"
		"\n                 min .---. max                 | count\n"
		" 1152921504606846976 : X : 4611686018427387904 | 1\n");
}

Test(rt_aggmodes, aggpack_count_past_int64_max)
{
	/* two buckets of 3 * 2^61 each: the packed row's count, their sum,
	 * wraps as DTrace's int64 sum does (it was a long double converted
	 * past long long's range: undefined, found by fuzz_consumer) */
	int64_t *a = buckets(127);

	a[64] = 3LL << 61;
	a[65] = 3LL << 61;
	packed_keyless(a,
		"\n"
		"\n  min .----. max  | count\n"
		"    0 : xx : 4    | -4611686018427387904\n");
}
