/*
 * dtrun --metrics' text (loader/metrics_text.c): label names from
 * -x metrics_labels, label values escaped as Prometheus's format says,
 * histogram buckets' le bounds for quantize, lquantize and llquantize.
 */
#include <criterion/criterion.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <unistd.h>
#include "metrics.h"
#include "unit/rt_build.h"

static void labels_refused(const char *spec, const char *want)
{
	char **v;
	int n;
	const char *why = NULL;

	cr_expect_eq(metrics_parse_labels(spec, &v, &n, &why), -EINVAL, "%s", spec);
	cr_expect_str_eq(why ? why : "(none)", want, "%s", spec);
}

Test(metrics, label_names)
{
	char **v;
	int n;
	const char *why = NULL;

	cr_assert_eq(metrics_parse_labels("prog,pid_2,_x", &v, &n, &why), 0);
	cr_assert_eq(n, 3);
	cr_expect_str_eq(v[0], "prog");
	cr_expect_str_eq(v[1], "pid_2");
	cr_expect_str_eq(v[2], "_x");
	metrics_free_labels(v, n);
	cr_assert_eq(metrics_parse_labels(NULL, &v, &n, &why), 0);
	cr_expect_eq(n, 0);
	labels_refused("a,,b", "an empty label name");
	labels_refused("le", "\"le\" is the histograms' bucket label");
	labels_refused("__name__", "names starting with __ are Prometheus's");
	labels_refused("2x", "a label name is letters, digits and _, not starting with a digit");
	labels_refused("a-b", "a label name is letters, digits and _, not starting with a digit");
	labels_refused("a,b,a", "a label name given twice");
}

static void bounds_of(uint32_t func, int64_t p0, int64_t p1, int64_t p2, int64_t p3,
		      int nslots, int nwant, const int64_t *want)
{
	struct dcc_meta_agg a = { .func = func, .param = { p0, p1, p2, p3 } };
	int64_t got[512];

	a.val_size = (uint32_t)nslots * 8;
	cr_assert_eq(dcc_agg_bucket_bounds(&a, got, 512), nwant);
	for (int i = 0; i < nwant; i++)
		cr_expect_eq(got[i], want[i], "bucket %d: %lld, want %lld", i, (long long)got[i],
			     (long long)want[i]);
}

static void bounds(uint32_t func, int64_t p0, int64_t p1, int64_t p2, int64_t p3, int nwant,
		   const int64_t *want)
{
	bounds_of(func, p0, p1, p2, p3, nwant, nwant, want);
}

/* Each bucket's largest integer; the last is unbounded. */
Test(metrics, bucket_bounds)
{
	int64_t q[127];

	for (int i = 0; i < 127; i++)
		q[i] = i < 63 ? -(INT64_C(1) << (62 - i)) : i == 63 ? 0 : i == 126 ? INT64_MAX
		       : (INT64_C(1) << (i - 63)) - 1;
	cr_expect_eq(q[62], -1);
	cr_expect_eq(q[64], 1);
	cr_expect_eq(q[66], 7);
	bounds(DCC_AGG_QUANTIZE, 0, 0, 0, 0, 127, q);
	/* today's quantize value: 127 buckets and the overflow slot, no bucket */
	bounds_of(DCC_AGG_QUANTIZE, 0, 0, 0, 0, 128, 127, q);
	/* lquantize(x, 0, 20, 5): < 0, [0,5), [5,10), [10,15), [15,20), >= 20 */
	bounds(DCC_AGG_LQUANTIZE, 0, 20, 5, 0, 6, (int64_t[]){ -1, 4, 9, 14, 19, INT64_MAX });
	/* llquantize(x, 10, 0, 1, 10): |v| < 1, 1..9, 10..90 by 10, >= 100 */
	int64_t ll[39];
	int k = 19;
	int64_t pos[19] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100 };
	for (int j = 0; j < k; j++) {
		ll[k + 1 + j] = j == k - 1 ? INT64_MAX : pos[j + 1] - 1;
		ll[k - 1 - j] = -pos[j];
	}
	ll[k] = 0;
	bounds(DCC_AGG_LLQUANTIZE, 10, 0, 1, 10, 39, ll);
}

/* Label values: \ " and newline escaped, bytes that are not UTF-8 as U+FFFD. */
Test(metrics, label_values_escaped)
{
	struct rtt t;
	struct mb b;
	char key[16] = "a\\b\n\"c\xff\xc3\xa9";
	int ncpu = libbpf_num_possible_cpus(), fd;
	int64_t *v;
	size_t len;

	if (geteuid() != 0)
		cr_skip_test("needs root for BPF maps");
	mb_init(&b);
	mb_agg(&b, "n", "m0", DCC_AGG_SUM, 8);
	mb_key(&b, DCC_K_STRING, 16, 0);
	cr_assert_eq(rtt_open(&t, &b, false, NULL, 0), 0);
	fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_HASH, "t0", 16, 8, 16, NULL);
	cr_assert(fd >= 0);
	v = calloc(ncpu, 8);
	v[0] = -4;
	bpf_map_update_elem(fd, key, v, BPF_ANY);
	dcc_runtime__set_agg_fd(t.rt, 0, fd);
	char *text = metrics_text(t.rt, (char *[]){ "k" }, 1, &len);
	cr_assert_not_null(text);
	cr_expect_str_eq(text, "# HELP dcc_n sum() of @n\n"
			 "# TYPE dcc_n counter\n"
			 "dcc_n{k=\"a\\\\b\\n\\\"c\xef\xbf\xbd\xc3\xa9\"} -4\n");
	cr_expect_eq(len, strlen(text));
	free(text);
	free(v);
	close(fd);
	rtt_close(&t);
}

/* A gauge with an integer key (labelled key0 without metrics_labels) and a
 * keyless lquantize histogram: buckets from the one of 0 to the highest in
 * use, cumulative, then +Inf and _count. */
Test(metrics, gauge_and_lquantize)
{
	struct rtt t;
	struct mb b;
	int ncpu = libbpf_num_possible_cpus(), f0, f1;
	int64_t *v, *h, key = -3;
	uint32_t zero = 0;
	size_t len;

	if (geteuid() != 0)
		cr_skip_test("needs root for BPF maps");
	mb_init(&b);
	mb_agg(&b, "m", "m0", DCC_AGG_MAX, 16);
	mb_key(&b, DCC_K_INT, 8, 1);
	mb_agg(&b, "", "m1", DCC_AGG_LQUANTIZE, 6 * 8);
	b.aggs[1].param[0] = 0, b.aggs[1].param[1] = 20, b.aggs[1].param[2] = 5;
	cr_assert_eq(rtt_open(&t, &b, false, NULL, 0), 0, "%s", rtt_err(&t));
	f0 = bpf_map_create(BPF_MAP_TYPE_PERCPU_HASH, "t0", 8, 16, 16, NULL);
	f1 = bpf_map_create(BPF_MAP_TYPE_PERCPU_HASH, "t1", 4, 6 * 8, 16, NULL);
	cr_assert(f0 >= 0 && f1 >= 0);
	v = calloc(ncpu, 16);
	v[0] = 9, v[1] = 2;
	bpf_map_update_elem(f0, &key, v, BPF_ANY);
	h = calloc(ncpu, 6 * 8);
	h[2] = 4, h[3] = 1; /* [5,10) 4 times, [10,15) once */
	bpf_map_update_elem(f1, &zero, h, BPF_ANY);
	dcc_runtime__set_agg_fd(t.rt, 0, f0);
	dcc_runtime__set_agg_fd(t.rt, 1, f1);
	char *text = metrics_text(t.rt, NULL, 0, &len);
	cr_assert_not_null(text);
	cr_expect_str_eq(text, "# HELP dcc_m max() of @m\n"
			 "# TYPE dcc_m gauge\n"
			 "dcc_m{key0=\"-3\"} 9\n"
			 "# HELP dcc_lquantize lquantize() of @\n"
			 "# TYPE dcc_lquantize histogram\n"
			 "dcc_lquantize_bucket{le=\"4\"} 0\n"
			 "dcc_lquantize_bucket{le=\"9\"} 4\n"
			 "dcc_lquantize_bucket{le=\"14\"} 5\n"
			 "dcc_lquantize_bucket{le=\"+Inf\"} 5\n"
			 "dcc_lquantize_count 5\n");
	free(text);
	free(v);
	free(h);
	close(f0);
	close(f1);
	rtt_close(&t);
}
