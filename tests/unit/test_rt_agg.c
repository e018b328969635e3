/*
 * Aggregations read from real kernel maps (run as root): per-CPU hash maps
 * made and filled here, bound to a runtime built from synthetic metadata,
 * then printed by printa() records and at the end: merging across CPUs,
 * default formats, sorting options, formatted printa over several
 * aggregations, histograms, clear/trunc, and drop reports.
 */
#include <criterion/criterion.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <stdarg.h>
#include <unistd.h>
#include "unit/rt_build.h"
#include "unit/rt_agg_maps.h"

TestSuite(rt_agg, .init = setup, .fini = teardown);

#define SROW(s, v) fmt("  %-50s %16lld\n", s, (long long)(v))

/* @[execname] = count() with ls 2, bash 5, sshd 5, cron 9 over two CPUs. */
static void strkey(struct rtt *t, const char *const *x, int nx)
{
	struct skey k;
	struct mb b;
	int fd;

	mb_init(&b);
	mb_agg(&b, "", "m", DCC_AGG_COUNT, 8);
	mb_key(&b, DCC_K_STRING, 16, 0);
	cr_assert_eq(rtt_open(t, &b, false, x, nx), 0, "%s", rtt_err(t));
	fd = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 16, 8);
	k = sk("bash", 0);
	put1(fd, &k, 2, 3);
	k = sk("ls", 0);
	put1(fd, &k, 0, 2);
	k = sk("sshd", 0);
	put1(fd, &k, 5, 0);
	k = sk("cron", 0);
	put1(fd, &k, 4, 5);
	cr_assert_eq(dcc_runtime__set_agg_fd(t->rt, 0, fd), 0);
}

Test(rt_agg, count_without_keys)
{
	struct rtt t;
	struct mb b;
	int fd;

	mb_init(&b);
	mb_agg(&b, "", "m", DCC_AGG_COUNT, 8);
	cr_assert_eq(rtt_open(&t, &b, false, NULL, 0), 0);
	fd = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 4, 8);
	put1(fd, &zero_key, 3, 4);
	cr_assert_eq(dcc_runtime__set_agg_fd(t.rt, 0, fd), 0);
	cr_assert_eq(dcc_runtime__print_aggs(t.rt), 0);
	cr_assert_str_eq(rtt_out(&t), "\n                7\n");
	rtt_close(&t);
}

Test(rt_agg, count_by_string_sorted_by_value_then_key)
{
	struct rtt t;

	strkey(&t, NULL, 0);
	cr_assert_eq(dcc_runtime__print_aggs(t.rt), 0);
	cr_assert_str_eq(rtt_out(&t),
		"\n"
		"  ls                                                                2\n"
		"  bash                                                              5\n"
		"  sshd                                                              5\n"
		"  cron                                                              9\n");
	rtt_close(&t);
}

Test(rt_agg, aggsortkey_and_aggsortrev)
{
	const char *key[] = { "aggsortkey" }, *rev[] = { "aggsortrev" };
	const char *both[] = { "aggsortkey", "aggsortrev" };
	struct rtt t;
	char want[1024];

	strkey(&t, key, 1);
	dcc_runtime__print_aggs(t.rt);
	snprintf(want, sizeof(want), "\n%s%s%s%s", SROW("bash", 5), SROW("cron", 9),
		 SROW("ls", 2), SROW("sshd", 5));
	cr_assert_str_eq(rtt_out(&t), want);
	rtt_close(&t);

	strkey(&t, rev, 1);
	dcc_runtime__print_aggs(t.rt);
	snprintf(want, sizeof(want), "\n%s%s%s%s", SROW("cron", 9), SROW("sshd", 5),
		 SROW("bash", 5), SROW("ls", 2));
	cr_assert_str_eq(rtt_out(&t), want);
	rtt_close(&t);

	strkey(&t, both, 2);
	dcc_runtime__print_aggs(t.rt);
	snprintf(want, sizeof(want), "\n%s%s%s%s", SROW("sshd", 5), SROW("ls", 2),
		 SROW("cron", 9), SROW("bash", 5));
	cr_assert_str_eq(rtt_out(&t), want);
	rtt_close(&t);
}

/* @[execname, pid] = count(): (bash,-1) 1, (bash,10) 3, (ls,7) 3. */
static void multikey(struct rtt *t, const char *const *x, int nx)
{
	struct skey k;
	struct mb b;
	int fd;

	mb_init(&b);
	mb_agg(&b, "", "m", DCC_AGG_COUNT, 8);
	mb_key(&b, DCC_K_STRING, 16, 0);
	mb_key(&b, DCC_K_INT, 4, 1);
	cr_assert_eq(rtt_open(t, &b, false, x, nx), 0, "%s", rtt_err(t));
	fd = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 24, 8);
	k = sk("ls", 7);
	put1(fd, &k, 1, 2);
	k = sk("bash", 10);
	put1(fd, &k, 3, 0);
	k = sk("bash", -1);
	put1(fd, &k, 0, 1);
	cr_assert_eq(dcc_runtime__set_agg_fd(t->rt, 0, fd), 0);
}

#define MROW(s, i, v) fmt("  %-50s %8d %16lld\n", s, i, (long long)(v))

Test(rt_agg, tuple_keys)
{
	struct rtt t;

	multikey(&t, NULL, 0);
	dcc_runtime__print_aggs(t.rt);
	cr_assert_str_eq(rtt_out(&t),
		"\n"
		"  bash                                                     -1                1\n"
		"  bash                                                     10                3\n"
		"  ls                                                        7                3\n");
	rtt_close(&t);
}

Test(rt_agg, aggsortkeypos)
{
	const char *x1[] = { "aggsortkeypos=1" }, *x2[] = { "aggsortkeypos=1", "aggsortkey" };
	struct rtt t;
	char want[1024];

	/* ties on the value are broken by the pid first */
	multikey(&t, x1, 1);
	dcc_runtime__print_aggs(t.rt);
	snprintf(want, sizeof(want), "\n%s%s%s", MROW("bash", -1, 1), MROW("ls", 7, 3),
		 MROW("bash", 10, 3));
	cr_assert_str_eq(rtt_out(&t), want);
	rtt_close(&t);

	/* by key from the pid: unsigned, so -1 sorts last */
	multikey(&t, x2, 2);
	dcc_runtime__print_aggs(t.rt);
	snprintf(want, sizeof(want), "\n%s%s%s", MROW("ls", 7, 3), MROW("bash", 10, 3),
		 MROW("bash", -1, 1));
	cr_assert_str_eq(rtt_out(&t), want);
	rtt_close(&t);
}

Test(rt_agg, int64_keys_sort_unsigned)
{
	const char *x[] = { "aggsortkey" };
	int64_t keys[] = { 100, -3, 5 };
	struct rtt t;
	struct mb b;
	int fd;

	mb_init(&b);
	mb_agg(&b, "", "m", DCC_AGG_SUM, 8);
	mb_key(&b, DCC_K_INT, 8, 1);
	cr_assert_eq(rtt_open(&t, &b, false, x, 1), 0);
	fd = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 8, 8);
	for (int i = 0; i < 3; i++)
		put1(fd, &keys[i], 1, 0);
	dcc_runtime__set_agg_fd(t.rt, 0, fd);
	dcc_runtime__print_aggs(t.rt);
	cr_assert_str_eq(rtt_out(&t),
		"\n"
		"                5                1\n"
		"              100                1\n"
		"               -3                1\n");
	rtt_close(&t);
}

Test(rt_agg, small_int_keys)
{
	struct rtt t;
	struct mb b;
	int64_t k[3] = { -1, -1, -1 }; /* 16-bit, 8-bit keys read unsigned */
	int fd;

	mb_init(&b);
	mb_agg(&b, "", "m", DCC_AGG_COUNT, 8);
	mb_key(&b, DCC_K_INT, 2, 1);
	mb_key(&b, DCC_K_INT, 1, 1);
	mb_key(&b, DCC_K_INT, 4, 0);
	cr_assert_eq(rtt_open(&t, &b, false, NULL, 0), 0);
	fd = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 24, 8);
	put1(fd, k, 1, 1);
	dcc_runtime__set_agg_fd(t.rt, 0, fd);
	dcc_runtime__print_aggs(t.rt);
	cr_assert_str_eq(rtt_out(&t), "\n 65535 255       -1                2\n");
	rtt_close(&t);
}

Test(rt_agg, sum_avg_min_max_merge_across_cpus)
{
	struct rtt t;
	struct mb b;
	struct skey ka = sk("a", 0), kb = sk("b", 0);
	int fsum, favg, fmin, fmax;

	mb_init(&b);
	mb_agg(&b, "s", "m0", DCC_AGG_SUM, 8);
	mb_agg(&b, "a", "m1", DCC_AGG_AVG, 16);
	mb_agg(&b, "mn", "m2", DCC_AGG_MIN, 16);
	mb_key(&b, DCC_K_STRING, 16, 0);
	mb_agg(&b, "mx", "m3", DCC_AGG_MAX, 16);
	cr_assert_eq(rtt_open(&t, &b, false, NULL, 0), 0, "%s", rtt_err(&t));
	fsum = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 4, 8);
	favg = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 4, 16);
	fmin = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 16, 16);
	fmax = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 4, 16);
	put1(fsum, &zero_key, 10, -3);
	/* avg: (10 - 40) / 3 = -10 */
	put(favg, &zero_key, 2, (int64_t[]){ 2, 10 }, (int64_t[]){ 1, -40 });
	/* min: a CPU with n = 0 never saw a value; its 0 must not win */
	put(fmin, &ka, 2, (int64_t[]){ 5, 2 }, (int64_t[]){ 0, 0 });
	put(fmin, &kb, 2, (int64_t[]){ 0, 0 }, (int64_t[]){ -3, 1 });
	put(fmax, &zero_key, 2, (int64_t[]){ -8, 1 }, (int64_t[]){ -6, 4 });
	dcc_runtime__set_agg_fd(t.rt, 0, fsum);
	dcc_runtime__set_agg_fd(t.rt, 1, favg);
	dcc_runtime__set_agg_fd(t.rt, 2, fmin);
	dcc_runtime__set_agg_fd(t.rt, 3, fmax);
	cr_assert_eq(dcc_runtime__print_aggs(t.rt), 0);
	cr_assert_str_eq(rtt_out(&t),
		"\n"
		"                7\n"
		"              -10\n"
		"  b                                                                -3\n"
		"  a                                                                 5\n"
		"               -6\n");
	rtt_close(&t);
}

Test(rt_agg, stddev_in_128_bits)
{
	struct rtt t;
	struct mb b;
	uint32_t k1 = 1, k2 = 2;
	int fd;

	mb_init(&b);
	mb_agg(&b, "", "m", DCC_AGG_STDDEV, 32);
	mb_key(&b, DCC_K_INT, 4, 0);
	cr_assert_eq(rtt_open(&t, &b, false, NULL, 0), 0);
	fd = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 8, 32);
	/* 2 4 4 4 | 5 5 7 9: mean 5, E[x^2] 29, stddev 2 */
	put(fd, &k1, 4, (int64_t[]){ 4, 14, 52, 0 }, (int64_t[]){ 4, 26, 180, 0 });
	/* 3<<32 and 5<<32: the squares need the high word; stddev 1<<32 */
	put(fd, &k2, 4, (int64_t[]){ 1, 3LL << 32, 0, 9 }, (int64_t[]){ 1, 5LL << 32, 0, 25 });
	dcc_runtime__set_agg_fd(t.rt, 0, fd);
	dcc_runtime__print_aggs(t.rt);
	cr_assert_str_eq(rtt_out(&t), "\n"
				      "        1                2\n"
				      "        2       4294967296\n");
	rtt_close(&t);
}

Test(rt_agg, extreme_values_wrap_as_the_kernel_counters_do)
{
	/* the sums the runtime works out from CPUs' values wrap in unsigned,
	 * as the kernel's counters do: signed overflow (UBSan, the ASan build's
	 * ctest) in the per-CPU merges and in stddev's |mean| of INT64_MIN */
	struct rtt t;
	struct mb b;
	int fsd, fmax;

	mb_init(&b);
	mb_agg(&b, "sd", "m0", DCC_AGG_STDDEV, 32);
	mb_agg(&b, "mx", "m1", DCC_AGG_MAX, 16);
	cr_assert_eq(rtt_open(&t, &b, false, NULL, 0), 0, "%s", rtt_err(&t));
	fsd = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 4, 32);
	fmax = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 4, 16);
	/* one value, INT64_MIN: its square is 2^126, the mean's square too:
	 * stddev 0 */
	put(fsd, &zero_key, 4, (int64_t[]){ 1, INT64_MIN, 0, 1LL << 62 },
	    (int64_t[]){ 0, 0, 0, 0 });
	/* counts of INT64_MAX on two CPUs: their sum wraps, still not 0 */
	put(fmax, &zero_key, 2, (int64_t[]){ 7, INT64_MAX }, (int64_t[]){ 9, INT64_MAX });
	dcc_runtime__set_agg_fd(t.rt, 0, fsd);
	dcc_runtime__set_agg_fd(t.rt, 1, fmax);
	cr_assert_eq(dcc_runtime__print_aggs(t.rt), 0);
	cr_assert_str_eq(rtt_out(&t), "\n                0\n                9\n");
	rtt_close(&t);
}

Test(rt_agg, empty_aggregations_print_nothing)
{
	struct rtt t;
	struct mb b;
	int fd;

	mb_init(&b);
	mb_agg(&b, "", "m", DCC_AGG_COUNT, 8);
	mb_agg(&b, "x", "m2", DCC_AGG_COUNT, 8);
	cr_assert_eq(rtt_open(&t, &b, false, NULL, 0), 0);
	fd = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 4, 8);
	dcc_runtime__set_agg_fd(t.rt, 0, fd);
	cr_assert_eq(dcc_runtime__print_aggs(t.rt), 0);
	cr_assert_str_eq(rtt_out(&t), "\n");
	rtt_close(&t);
}

/* A clause that runs printa(@) for aggregation 0. */
static void printa_clause(struct mb *b, const char *f, int nagg)
{
	mb_clause(b);
	mb_action(b, DCC_ACT_PRINTA, f);
	for (int i = 0; i < nagg; i++)
		mb_aggarg(b, i);
}

Test(rt_agg, printa_record_marks_printed)
{
	struct rtt t;
	struct rec r;
	struct mb b;
	int fd;

	mb_init(&b);
	mb_probe(&b, 9, "profile", "", "", "tick-1s");
	mb_agg(&b, "", "m", DCC_AGG_COUNT, 8);
	mb_agg(&b, "other", "m2", DCC_AGG_SUM, 8);
	printa_clause(&b, NULL, 1);
	cr_assert_eq(rtt_open(&t, &b, false, NULL, 0), 0);
	fd = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 4, 8);
	put1(fd, &zero_key, 1, 1);
	dcc_runtime__set_agg_fd(t.rt, 0, fd);
	fd = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 4, 8);
	put1(fd, &zero_key, 40, 2);
	dcc_runtime__set_agg_fd(t.rt, 1, fd);
	rec_init(&r, &b, 1, 9, 0);
	cr_assert_eq(dcc_runtime__handle_record(t.rt, r.buf, r.size), 0);
	cr_assert_eq(dcc_runtime__print_aggs(t.rt), 0);
	cr_assert_str_eq(rtt_out(&t),
		"CPU     ID                    FUNCTION:NAME\n"
		"  0      9                         :tick-1s \n"
		"                2\n"
		"\n"
		"\n"
		"               42\n");
	rtt_close(&t);
}

Test(rt_agg, printa_with_format)
{
	struct rtt t;
	struct rec r;
	struct mb b;

	mb_init(&b);
	mb_agg(&b, "", "m", DCC_AGG_COUNT, 8);
	mb_key(&b, DCC_K_STRING, 16, 0);
	printa_clause(&b, "%-8s|%@5d|%@x\n", 1);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_PRINTA, "total %@d\n");
	mb_aggarg(&b, 0);
	cr_assert_eq(rtt_open(&t, &b, true, NULL, 0), 0);
	struct skey k = sk("bash", 0);
	int fd = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 16, 8);
	put1(fd, &k, 30, 0);
	k = sk("ls", 0);
	put1(fd, &k, 2, 0);
	dcc_runtime__set_agg_fd(t.rt, 0, fd);
	rec_init(&r, &b, 1, 9, 0);
	cr_assert_eq(dcc_runtime__handle_record(t.rt, r.buf, r.size), 0);
	/* fewer conversions than keys is fine */
	rec_init(&r, &b, 2, 9, 0);
	cr_assert_eq(dcc_runtime__handle_record(t.rt, r.buf, r.size), 0);
	cr_assert_eq(dcc_runtime__print_aggs(t.rt), 0);
	cr_assert_str_eq(rtt_out(&t), "ls      |    2|2\nbash    |   30|1e\ntotal 2\ntotal 30\n\n");
	rtt_close(&t);
}

Test(rt_agg, printa_several_aggregations)
{
	const char *x[] = { "aggsortpos=1" };
	struct skey k;
	struct rtt t;
	struct rec r;
	struct mb b;
	int f0, f1;

	for (int pass = 0; pass < 2; pass++) {
		mb_init(&b);
		mb_agg(&b, "c", "m0", DCC_AGG_COUNT, 8);
		mb_key(&b, DCC_K_STRING, 16, 0);
		mb_agg(&b, "s", "m1", DCC_AGG_SUM, 8);
		mb_key(&b, DCC_K_STRING, 16, 0);
		printa_clause(&b, "%s %@d %@d %@d\n", 2);
		cr_assert_eq(rtt_open(&t, &b, true, x, pass), 0, "%s", rtt_err(&t));
		f0 = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 16, 8);
		f1 = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 16, 8);
		k = sk("a", 0);
		put1(f0, &k, 1, 0);
		put1(f1, &k, 500, 0);
		k = sk("b", 0);
		put1(f0, &k, 2, 0); /* b has no sum: it prints 0 */
		k = sk("c", 0);
		put1(f1, &k, 7, 0); /* c has no count */
		dcc_runtime__set_agg_fd(t.rt, 0, f0);
		dcc_runtime__set_agg_fd(t.rt, 1, f1);
		rec_init(&r, &b, 1, 9, 0);
		cr_assert_eq(dcc_runtime__handle_record(t.rt, r.buf, r.size), 0);
		/* both were printed by printa: nothing more at the end */
		dcc_runtime__print_aggs(t.rt);
		if (pass == 0)
			cr_assert_str_eq(rtt_out(&t), "c 0 7 7\na 1 500 500\nb 2 0 0\n\n");
		else
			cr_assert_str_eq(rtt_out(&t), "b 2 0 0\nc 0 7 7\na 1 500 500\n\n");
		rtt_close(&t);
	}
}

/* An aggregation of one histogram, printed at the end. */
static void hist_case(uint32_t func, const int64_t *param, int nb, const int64_t *c0,
		      const int64_t *c1, const char *want)
{
	struct rtt t;
	struct mb b;
	int fd;

	mb_init(&b);
	mb_agg(&b, "", "m", func, nb * 8);
	memcpy(b.aggs[0].param, param, sizeof(b.aggs[0].param));
	cr_assert_eq(rtt_open(&t, &b, false, NULL, 0), 0, "%s", rtt_err(&t));
	fd = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 4, nb * 8);
	put(fd, &zero_key, nb, c0, c1);
	dcc_runtime__set_agg_fd(t.rt, 0, fd);
	cr_assert_eq(dcc_runtime__print_aggs(t.rt), 0);
	cr_assert_str_eq(rtt_out(&t), want);
	rtt_close(&t);
}

#define HIST_HEAD "\n\n           value  ------------- Distribution ------------- count    \n"

Test(rt_agg, quantize)
{
	int64_t p[4] = { 0 }, *a = buckets(127), *c = buckets(127);

	a[64] = 2; /* 1 */
	a[66] = 3; /* 4..7 */
	c[66] = 3;
	hist_case(DCC_AGG_QUANTIZE, p, 127, a, c, HIST_HEAD
		"               0 |                                         0        \n"
		"               1 |@@@@@@@@@@                               2        \n"
		"               2 |                                         0        \n"
		"               4 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@           6        \n"
		"               8 |                                         0        \n"
		"\n");
	free(a);
	free(c);
}

Test(rt_agg, quantize_mixed_and_negative_counts)
{
	int64_t p[4] = { 0 }, *a = buckets(127);

	a[64] = 4;
	a[65] = -2;
	hist_case(DCC_AGG_QUANTIZE, p, 127, a, NULL, HIST_HEAD
		"               0                     |                     0        \n"
		"               1                     |@@@@@@@@@@@@@        4        \n"
		"               2              @@@@@@@|                     -2       \n"
		"               4                     |                     0        \n"
		"\n");
	memset(a, 0, 127 * 8);
	a[62] = -3; /* -1 */
	a[63] = -1; /* 0 */
	hist_case(DCC_AGG_QUANTIZE, p, 127, a, NULL, HIST_HEAD
		"              -2                                         | 0        \n"
		"              -1           @@@@@@@@@@@@@@@@@@@@@@@@@@@@@@| -3       \n"
		"               0                               @@@@@@@@@@| -1       \n"
		"               1                                         | 0        \n"
		"\n");
	/* all zero: the buckets around 0 */
	memset(a, 0, 127 * 8);
	hist_case(DCC_AGG_QUANTIZE, p, 127, a, NULL, HIST_HEAD
		"              -1 |                                         0        \n"
		"               0 |                                         0        \n"
		"               1 |                                         0        \n"
		"\n");
	/* data only in the last bucket (2^62 and above) is data like any other */
	memset(a, 0, 127 * 8);
	a[126] = 7;
	hist_case(DCC_AGG_QUANTIZE, p, 127, a, NULL, HIST_HEAD
		"2305843009213693952 |                                         0        \n"
		"4611686018427387904 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 7        \n"
		"\n");
	free(a);
}

/* A value of ABI_QUANTIZE_SLOTS words (objects since the overflow slot):
 * the slot after the last bucket holds -2^63's count, which prints in
 * bucket 0 with what is there, per CPU summed; the 127-word value of older
 * objects prints the same rows. */
Test(rt_agg, quantize_overflow_slot)
{
	int64_t p[4] = { 0 }, *a = buckets(128), *c = buckets(128);
	const char *want = HIST_HEAD
		"-4611686018427387904 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 9        \n"
		"-2305843009213693952 |                                         0        \n"
		"\n";

	a[0] = 2;
	a[127] = 4;
	c[127] = 3;
	hist_case(DCC_AGG_QUANTIZE, p, 128, a, c, want);
	memset(a, 0, 128 * 8);
	a[0] = 9;
	hist_case(DCC_AGG_QUANTIZE, p, 127, a, NULL, want);
	free(a);
	free(c);
}

Test(rt_agg, lquantize)
{
	int64_t p[4] = { 0, 100, 10 }, *a = buckets(12);

	a[0] = 1;
	a[3] = 3;
	hist_case(DCC_AGG_LQUANTIZE, p, 12, a, NULL, HIST_HEAD
		"             < 0 |@@@@@@@@@@                               1        \n"
		"               0 |                                         0        \n"
		"              10 |                                         0        \n"
		"              20 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@           3        \n"
		"              30 |                                         0        \n"
		"\n");
	memset(a, 0, 12 * 8);
	a[10] = 2;
	a[11] = 5;
	hist_case(DCC_AGG_LQUANTIZE, p, 12, a, NULL, HIST_HEAD
		"              80 |                                         0        \n"
		"              90 |@@@@@@@@@@@                              2        \n"
		"          >= 100 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@            5        \n"
		"\n");
	free(a);
}

Test(rt_agg, lquantize_negative_range)
{
	int64_t p[4] = { -10, 10, 5 }, *a = buckets(6);

	a[0] = 1; /* < -10 */
	a[2] = 2; /* -5..-1 */
	hist_case(DCC_AGG_LQUANTIZE, p, 6, a, NULL, HIST_HEAD
		"           < -10 |@@@@@@@@@@@@@                            1        \n"
		"             -10 |                                         0        \n"
		"              -5 |@@@@@@@@@@@@@@@@@@@@@@@@@@@              2        \n"
		"               0 |                                         0        \n"
		"\n");
	free(a);
}

Test(rt_agg, llquantize)
{
	/* llquantize(x, 10, 0, 2, 10): n = 28, bucket 28 holds 0 */
	int64_t p[4] = { 10, 0, 2, 10 }, *a = buckets(57);

	a[33] = 2; /* 5 */
	a[42] = 1; /* 50..59 */
	hist_case(DCC_AGG_LLQUANTIZE, p, 57, a, NULL, HIST_HEAD
		"               4 |                                         0        \n"
		"               5 |@@@@@@@@@@@@@@@@@@@@@@@@@@@              2        \n"
		"               6 |                                         0        \n"
		"               7 |                                         0        \n"
		"               8 |                                         0        \n"
		"               9 |                                         0        \n"
		"              10 |                                         0        \n"
		"              20 |                                         0        \n"
		"              30 |                                         0        \n"
		"              40 |                                         0        \n"
		"              50 |@@@@@@@@@@@@@                            1        \n"
		"              60 |                                         0        \n"
		"\n");
	memset(a, 0, 57 * 8);
	a[23] = 1; /* -5 */
	a[33] = 1; /* 5 */
	hist_case(DCC_AGG_LLQUANTIZE, p, 57, a, NULL, HIST_HEAD
		"              -6 |                                         0        \n"
		"              -5 |@@@@@@@@@@@@@@@@@@@@                     1        \n"
		"              -4 |                                         0        \n"
		"              -3 |                                         0        \n"
		"              -2 |                                         0        \n"
		"              -1 |                                         0        \n"
		"               0 |                                         0        \n"
		"               1 |                                         0        \n"
		"               2 |                                         0        \n"
		"               3 |                                         0        \n"
		"               4 |                                         0        \n"
		"               5 |@@@@@@@@@@@@@@@@@@@@                     1        \n"
		"               6 |                                         0        \n"
		"\n");
	memset(a, 0, 57 * 8);
	a[56] = 4; /* >= 1000 */
	hist_case(DCC_AGG_LLQUANTIZE, p, 57, a, NULL, HIST_HEAD
		"             900 |                                         0        \n"
		"         >= 1000 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 4        \n"
		"\n");
	free(a);
}

Test(rt_agg, llquantize_wide_steps)
{
	/* llquantize(x, 2, 0, 3, 4): 1 | 2 3 | 4 6 | 8 12 | >= 16, n = 8 */
	int64_t p[4] = { 2, 0, 3, 4 }, *a = buckets(17);

	a[13] = 3; /* 6..7 */
	a[15] = 1; /* 12..15 */
	hist_case(DCC_AGG_LLQUANTIZE, p, 17, a, NULL, HIST_HEAD
		"               4 |                                         0        \n"
		"               6 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@           3        \n"
		"               8 |                                         0        \n"
		"              12 |@@@@@@@@@@                               1        \n"
		"           >= 16 |                                         0        \n"
		"\n");
	free(a);
}

/* The bucket of small magnitudes is "< 9" when it is the first row shown,
 * "abs() < 9" when a row of negative values (even an empty one) is above it */
Test(rt_agg, llquantize_small_magnitude_label)
{
	/* llquantize(x, 3, 2, 3, 9): < 9, then 9 12 15 ... by 3 and 27 36 45 ... by 9,
	 * n = 13 a side */
	int64_t p[4] = { 3, 2, 3, 9 }, *a = buckets(27);

	a[13] = 5; /* 0..8 */
	a[14] = 1; /* 9 */
	hist_case(DCC_AGG_LLQUANTIZE, p, 27, a, NULL, HIST_HEAD
		"              -9 |                                         0        \n"
		"       abs() < 9 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@        5        \n"
		"               9 |@@@@@@@                                  1        \n"
		"              12 |                                         0        \n"
		"\n");
	memset(a, 0, 27 * 8);
	a[14] = 2; /* 9 */
	hist_case(DCC_AGG_LLQUANTIZE, p, 27, a, NULL, HIST_HEAD
		"             < 9 |                                         0        \n"
		"               9 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 2        \n"
		"              12 |                                         0        \n"
		"\n");
	free(a);
}

Test(rt_agg, keyed_quantize_rows)
{
	struct rtt t;
	struct mb b;
	struct skey k;
	int64_t *a = buckets(127);
	int fd;

	mb_init(&b);
	mb_agg(&b, "", "m", DCC_AGG_QUANTIZE, 127 * 8);
	mb_key(&b, DCC_K_STRING, 16, 0);
	cr_assert_eq(rtt_open(&t, &b, false, NULL, 0), 0);
	fd = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 16, 127 * 8);
	a[67] = 1; /* 8: weight 8 */
	k = sk("big", 0);
	put(fd, &k, 127, a, NULL);
	a[67] = 0;
	a[64] = 1; /* 1: weight 1, sorts first */
	k = sk("small", 0);
	put(fd, &k, 127, a, NULL);
	dcc_runtime__set_agg_fd(t.rt, 0, fd);
	dcc_runtime__print_aggs(t.rt);
	cr_assert_str_eq(rtt_out(&t),
		"\n"
		"  small                                             \n"
		"           value  ------------- Distribution ------------- count    \n"
		"               0 |                                         0        \n"
		"               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 1        \n"
		"               2 |                                         0        \n"
		"\n"
		"  big                                               \n"
		"           value  ------------- Distribution ------------- count    \n"
		"               4 |                                         0        \n"
		"               8 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 1        \n"
		"              16 |                                         0        \n"
		"\n");
	free(a);
	rtt_close(&t);
}

Test(rt_agg, clear_and_trunc)
{
	struct rtt t;
	struct rec r;
	struct mb b;
	uint32_t noff;
	char want[1024];

	mb_init(&b);
	mb_agg(&b, "", "m", DCC_AGG_COUNT, 8);
	mb_key(&b, DCC_K_STRING, 16, 0);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_TRUNC, NULL);
	mb_aggarg(&b, 0);
	noff = mb_int(&b, 4, 1);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_CLEAR, NULL);
	mb_aggarg(&b, 0);
	cr_assert_eq(rtt_open(&t, &b, true, NULL, 0), 0, "%s", rtt_err(&t));
	int fd = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 16, 8);
	const char *names[] = { "a", "b", "c", "d", "e" };
	for (int i = 0; i < 5; i++) {
		struct skey k = sk(names[i], 0);

		put1(fd, &k, i + 1, 10);
	}
	dcc_runtime__set_agg_fd(t.rt, 0, fd);
	/* trunc(@, 3): the three largest stay */
	rec_init(&r, &b, 1, 9, 0);
	rec_int(&r, noff, 3);
	cr_assert_eq(dcc_runtime__handle_record(t.rt, r.buf, r.size), 0);
	cr_assert_eq(dcc_runtime__printa(t.rt, 0), 0);
	snprintf(want, sizeof(want), "\n%s%s%s", SROW("c", 13), SROW("d", 14), SROW("e", 15));
	cr_assert_str_eq(rtt_out(&t), want);
	/* trunc(@, -1): the smallest stays */
	rec_int(&r, noff, -1);
	cr_assert_eq(dcc_runtime__handle_record(t.rt, r.buf, r.size), 0);
	/* clear(@): keys stay, values go to 0 */
	rec_init(&r, &b, 2, 9, 0);
	cr_assert_eq(dcc_runtime__handle_record(t.rt, r.buf, r.size), 0);
	cr_assert_eq(dcc_runtime__printa(t.rt, 0), 0);
	snprintf(want, sizeof(want), "\n%s%s%s\n%s", SROW("c", 13), SROW("d", 14), SROW("e", 15),
		 SROW("c", 0));
	cr_assert_str_eq(rtt_out(&t), want);
	/* trunc(@) without a count empties it */
	rec_init(&r, &b, 1, 9, 0);
	rec_int(&r, noff, 0);
	cr_assert_eq(dcc_runtime__handle_record(t.rt, r.buf, r.size), 0);
	uint32_t cur = 0;
	cr_assert_neq(bpf_map_get_next_key(fd, NULL, &cur), 0);
	rtt_close(&t);
}

Test(rt_agg, drops_reported_as_they_grow)
{
	struct rtt t;
	struct mb b;
	int fd;
	uint64_t *v = calloc(ncpu, 8);

	mb_init(&b);
	cr_assert_eq(rtt_open(&t, &b, false, NULL, 0), 0);
	fd = mkmap(BPF_MAP_TYPE_PERCPU_ARRAY, 4, 8);
	cr_assert_eq(dcc_runtime__set_drops_fd(t.rt, fd), 0);
	cr_assert_eq(dcc_runtime__report_drops(t.rt), 0);
	cr_assert_str_eq(rtt_err(&t), "");

	uint32_t k = DCC_DROP_PRINCIPAL;
	v[0] = 1;
	v[1] = 12;
	bpf_map_update_elem(fd, &k, v, BPF_ANY);
	k = DCC_DROP_DYNVAR;
	v[0] = 2;
	v[1] = 1;
	bpf_map_update_elem(fd, &k, v, BPF_ANY);
	k = DCC_DROP_AGG;
	v[0] = 0;
	v[1] = 1;
	bpf_map_update_elem(fd, &k, v, BPF_ANY);
	cr_assert_eq(dcc_runtime__report_drops(t.rt), 4);
	cr_assert_str_eq(rtt_err(&t), "dtrun: 1 drop on CPU 0\n"
				      "dtrun: 12 drops on CPU 1\n"
				      "dtrun: 1 aggregation drop on CPU 1\n"
				      "dtrun: 3 dynamic variable drops\n");
	/* nothing new, nothing said; then only the growth */
	cr_assert_eq(dcc_runtime__report_drops(t.rt), 0);
	k = DCC_DROP_DYNVAR;
	v[0] = 3;
	v[1] = 1;
	bpf_map_update_elem(fd, &k, v, BPF_ANY);
	cr_assert_eq(dcc_runtime__report_drops(t.rt), 1);
	cr_assert_str_eq(rtt_err(&t) + strlen("dtrun: 1 drop on CPU 0\ndtrun: 12 drops on CPU 1\n"
					      "dtrun: 1 aggregation drop on CPU 1\n"
					      "dtrun: 3 dynamic variable drops\n"),
			 "dtrun: 1 dynamic variable drop\n");
	free(v);
	rtt_close(&t);
}

Test(rt_agg, normalize_and_denormalize)
{
	struct rtt t;
	struct rec r;
	struct mb b;
	struct skey k;
	uint32_t noff;
	int fd, fq;
	int64_t *q = buckets(127);

	mb_init(&b);
	mb_agg(&b, "", "m", DCC_AGG_SUM, 8);
	mb_key(&b, DCC_K_STRING, 16, 0);
	mb_agg(&b, "q", "m1", DCC_AGG_QUANTIZE, 127 * 8);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_NORMALIZE, NULL);
	mb_aggarg(&b, 0);
	noff = mb_int(&b, 8, 1);
	mb_action(&b, DCC_ACT_NORMALIZE, NULL);
	mb_aggarg(&b, 1);
	mb_int(&b, 8, 1);
	mb_action(&b, DCC_ACT_PRINTA, NULL);
	mb_aggarg(&b, 0);
	mb_action(&b, DCC_ACT_PRINTA, "%s=%@d\n");
	mb_aggarg(&b, 0);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_DENORMALIZE, NULL);
	mb_aggarg(&b, 0);
	mb_aggarg(&b, 1);
	cr_assert_eq(rtt_open(&t, &b, true, NULL, 0), 0, "%s", rtt_err(&t));
	fd = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 16, 8);
	k = sk("a", 0);
	put1(fd, &k, 1000, 999); /* 1999 / 1000 = 1 */
	k = sk("b", 0);
	put1(fd, &k, -2500, 0); /* -2 */
	dcc_runtime__set_agg_fd(t.rt, 0, fd);
	fq = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 4, 127 * 8);
	q[64] = 10;
	q[65] = 25;
	put(fq, &zero_key, 127, q, NULL);
	dcc_runtime__set_agg_fd(t.rt, 1, fq);
	rec_init(&r, &b, 1, 9, 0);
	rec_int(&r, noff, 1000);
	rec_int(&r, noff + 8, 10);
	cr_assert_eq(dcc_runtime__handle_record(t.rt, r.buf, r.size), 0);
	cr_assert_str_eq(rtt_out(&t), fmt("\n%s%sb=-2\na=1\n", SROW("b", -2), SROW("a", 1)));
	/* the factor holds at the end too; bars use the real counts */
	dcc_runtime__print_aggs(t.rt);
	cr_assert_str_eq(rtt_out(&t) + strlen(fmt("\n%s%sb=-2\na=1\n", SROW("b", -2),
						  SROW("a", 1))),
		HIST_HEAD
		"               0 |                                         0        \n"
		"               1 |@@@@@@@@@@@                              1        \n"
		"               2 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@            2        \n"
		"               4 |                                         0        \n"
		"\n");
	rtt_close(&t);
	free(q);
}

Test(rt_agg, denormalize_restores_values)
{
	struct rtt t;
	struct rec r;
	struct mb b;
	int fd;

	mb_init(&b);
	mb_agg(&b, "", "m", DCC_AGG_AVG, 16);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_NORMALIZE, NULL);
	mb_aggarg(&b, 0);
	mb_int(&b, 8, 1);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_DENORMALIZE, NULL);
	mb_aggarg(&b, 0);
	cr_assert_eq(rtt_open(&t, &b, true, NULL, 0), 0, "%s", rtt_err(&t));
	fd = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 4, 16);
	put(fd, &zero_key, 2, (int64_t[]){ 2, 7000 }, NULL);
	dcc_runtime__set_agg_fd(t.rt, 0, fd);
	rec_init(&r, &b, 1, 9, 0);
	rec_int(&r, 16, 1000);
	dcc_runtime__handle_record(t.rt, r.buf, r.size);
	dcc_runtime__printa(t.rt, 0);
	rec_init(&r, &b, 2, 9, 0);
	dcc_runtime__handle_record(t.rt, r.buf, r.size);
	dcc_runtime__printa(t.rt, 0);
	/* avg: 7000 / 1000 / 2 = 3, then 3500 */
	cr_assert_str_eq(rtt_out(&t), "\n                3\n\n             3500\n");
	rtt_close(&t);
}

Test(rt_agg, speculation_drops)
{
	struct rtt t;
	struct mb b;
	uint64_t *v = calloc(ncpu, 8);
	uint32_t k;
	int fd;

	mb_init(&b);
	cr_assert_eq(rtt_open(&t, &b, false, NULL, 0), 0);
	fd = mkmap(BPF_MAP_TYPE_PERCPU_ARRAY, 4, 8);
	cr_assert_eq(dcc_runtime__set_drops_fd(t.rt, fd), 0);
	v[0] = 1;
	k = DCC_DROP_SPEC;
	bpf_map_update_elem(fd, &k, v, BPF_ANY);
	v[1] = 4;
	k = DCC_DROP_SPEC_UNAVAIL;
	bpf_map_update_elem(fd, &k, v, BPF_ANY);
	v[0] = 0;
	v[1] = 1;
	k = DCC_DROP_SPEC_BUSY;
	bpf_map_update_elem(fd, &k, v, BPF_ANY);
	k = DCC_DROP_ERROR;
	bpf_map_update_elem(fd, &k, v, BPF_ANY);
	cr_assert_eq(dcc_runtime__report_drops(t.rt), 4);
	cr_assert_str_eq(rtt_err(&t),
		"dtrun: 1 error in ERROR probe enabling\n"
		"dtrun: 1 speculative drop\n"
		"dtrun: 1 failed speculation (available buffer(s) still busy)\n"
		"dtrun: 5 failed speculations (no speculative buffer available)\n");
	free(v);
	rtt_close(&t);
}

Test(rt_agg, printa_format_with_a_histogram)
{
	struct rtt t;
	struct rec r;
	struct mb b;
	struct skey k = sk("io", 0);
	int64_t *q = buckets(127);
	int fd;

	mb_init(&b);
	mb_agg(&b, "", "m", DCC_AGG_QUANTIZE, 127 * 8);
	mb_key(&b, DCC_K_STRING, 16, 0);
	printa_clause(&b, "%s:%@d--\n", 1);
	cr_assert_eq(rtt_open(&t, &b, true, NULL, 0), 0);
	fd = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 16, 127 * 8);
	q[63] = 2;
	put(fd, &k, 127, q, NULL);
	dcc_runtime__set_agg_fd(t.rt, 0, fd);
	rec_init(&r, &b, 1, 9, 0);
	cr_assert_eq(dcc_runtime__handle_record(t.rt, r.buf, r.size), 0);
	cr_assert_str_eq(rtt_out(&t),
		"io:\n"
		"           value  ------------- Distribution ------------- count    \n"
		"              -1 |                                         0        \n"
		"               0 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 2        \n"
		"               1 |                                         0        \n"
		"--\n");
	free(q);
	rtt_close(&t);
}

Test(rt_agg, aggzoom_scales_the_highest_bar)
{
	const char *x[] = { "aggzoom" };
	int64_t *a = buckets(127);
	struct rtt t;
	struct mb b;
	int fd;

	mb_init(&b);
	mb_agg(&b, "", "m", DCC_AGG_QUANTIZE, 127 * 8);
	cr_assert_eq(rtt_open(&t, &b, false, x, 1), 0);
	fd = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 4, 127 * 8);
	a[64] = 2;
	a[66] = 6;
	put(fd, &zero_key, 127, a, NULL);
	dcc_runtime__set_agg_fd(t.rt, 0, fd);
	dcc_runtime__print_aggs(t.rt);
	cr_assert_str_eq(rtt_out(&t), HIST_HEAD
		"               0 |                                         0        \n"
		"               1 |@@@@@@@@@@@@@                            2        \n"
		"               2 |                                         0        \n"
		"               4 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@   6        \n"
		"               8 |                                         0        \n"
		"\n");
	free(a);
	rtt_close(&t);
}

struct walked {
	int n;
	char keys[8][16];
	int64_t vals[8];
};

static int on_entry(void *ctx, const struct dcc_agg_entry *e)
{
	struct walked *w = ctx;

	cr_assert_eq(e->nwords, 1);
	memcpy(w->keys[w->n], e->key, 16);
	w->vals[w->n] = e->value;
	cr_assert_eq(e->data[0], e->value);
	return ++w->n == 3 ? 42 : 0;
}

Test(rt_agg, walk_in_printing_order)
{
	struct walked w = { 0 };
	struct rtt t;

	strkey(&t, NULL, 0);
	/* ls 2, bash 5, sshd 5, cron 9: the callback stops after three */
	cr_assert_eq(dcc_runtime__agg_walk(t.rt, 0, on_entry, &w), 42);
	cr_assert_eq(w.n, 3);
	cr_assert_str_eq(w.keys[0], "ls");
	cr_assert_str_eq(w.keys[1], "bash");
	cr_assert_str_eq(w.keys[2], "sshd");
	cr_assert_eq(w.vals[0], 2);
	cr_assert_eq(w.vals[2], 5);
	cr_assert_eq(dcc_runtime__agg_walk(t.rt, 7, on_entry, &w), -ENOENT);
	cr_assert_str_eq(rtt_out(&t), "");
	rtt_close(&t);
}

static int count_entry(void *ctx, const struct dcc_agg_entry *e)
{
	struct walked *w = ctx;

	memcpy(w->keys[w->n], e->key, 16);
	w->vals[w->n++] = e->value;
	return 0;
}

Test(rt_agg, an_application_truncates_and_clears)
{
	struct walked w = { 0 };
	struct rtt t;

	strkey(&t, NULL, 0);
	/* ls 2, bash 5, sshd 5, cron 9: keep the two largest, as trunc(@, 2) */
	cr_assert_eq(dcc_runtime__agg_trunc(t.rt, 0, 2), 0);
	cr_assert_eq(dcc_runtime__agg_walk(t.rt, 0, count_entry, &w), 0);
	cr_assert_eq(w.n, 2);
	cr_assert_str_eq(w.keys[0], "sshd");
	cr_assert_str_eq(w.keys[1], "cron");
	/* clear(): the keys stay, their values are 0 */
	cr_assert_eq(dcc_runtime__agg_clear(t.rt, 0), 0);
	memset(&w, 0, sizeof(w));
	cr_assert_eq(dcc_runtime__agg_walk(t.rt, 0, count_entry, &w), 0);
	cr_assert_eq(w.n, 2);
	cr_assert_eq(w.vals[0], 0);
	cr_assert_eq(w.vals[1], 0);
	cr_assert_eq(dcc_runtime__agg_clear(t.rt, 7), -ENOENT);
	cr_assert_eq(dcc_runtime__agg_trunc(t.rt, 7, 1), -ENOENT);
	rtt_close(&t);
}

Test(rt_agg, min_max_without_values_print_their_start)
{
	struct rtt t;
	struct rec r;
	struct mb b;
	struct skey k;
	int fc, fmn, fmx;

	mb_init(&b);
	mb_agg(&b, "c", "m0", DCC_AGG_COUNT, 8);
	mb_key(&b, DCC_K_STRING, 16, 0);
	mb_agg(&b, "mn", "m1", DCC_AGG_MIN, 16);
	mb_key(&b, DCC_K_STRING, 16, 0);
	mb_agg(&b, "mx", "m2", DCC_AGG_MAX, 16);
	mb_key(&b, DCC_K_STRING, 16, 0);
	printa_clause(&b, "%s %@d %@d %@d\n", 3);
	cr_assert_eq(rtt_open(&t, &b, true, NULL, 0), 0, "%s", rtt_err(&t));
	fc = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 16, 8);
	fmn = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 16, 16);
	fmx = mkmap(BPF_MAP_TYPE_PERCPU_HASH, 16, 16);
	k = sk("a", 0);
	put1(fc, &k, 1, 0);
	put(fmn, &k, 2, (int64_t[]){ 0, 0 }, NULL); /* as clear() leaves it */
	put(fmx, &k, 2, (int64_t[]){ 4, 1 }, NULL);
	dcc_runtime__set_agg_fd(t.rt, 0, fc);
	dcc_runtime__set_agg_fd(t.rt, 1, fmn);
	dcc_runtime__set_agg_fd(t.rt, 2, fmx);
	k = sk("b", 0);
	put1(fc, &k, 2, 0); /* b: no min, no max */
	rec_init(&r, &b, 1, 9, 0);
	cr_assert_eq(dcc_runtime__handle_record(t.rt, r.buf, r.size), 0);
	cr_assert_str_eq(rtt_out(&t), "a 1 9223372036854775807 4\n"
				      "b 2 9223372036854775807 -9223372036854775808\n");
	rtt_close(&t);
}
