/*
 * Floating-point record values (DCC_K_FLOAT) outside printf: trace() in
 * quiet and non-quiet modes, JSON numbers (and the strings for NaN and the
 * infinities), the metadata checks of their sizes, and their bytes handed
 * to applications.
 */
#include <criterion/criterion.h>
#include <math.h>
#include "unit/rt_build.h"

#define HEADER "CPU     ID                    FUNCTION:NAME\n"
#define BEGIN_LINE "  0      1                           :BEGIN "

struct fval {
	uint32_t size; /* 4, 8 or 16 */
	long double v;
};

/* One clause tracing each value in turn; the runtime's output. */
static char *traced(const struct fval *f, int n, bool quiet, const char *const *x, int nx)
{
	uint32_t offs[16];
	struct rtt t;
	struct rec r;
	struct mb b;
	char *out;

	mb_init(&b);
	mb_probe(&b, DCC_PROBE_BEGIN, "dtrace", "", "", "BEGIN");
	mb_clause(&b);
	for (int i = 0; i < n; i++) {
		mb_action(&b, DCC_ACT_TRACE, NULL);
		offs[i] = mb_field(&b, DCC_K_FLOAT, f[i].size, 1,
				   f[i].size == 4 ? "float" : f[i].size == 8 ? "double"
				   : "long double");
	}
	cr_assert_eq(rtt_open(&t, &b, quiet, x, nx), 0, "%s", rtt_err(&t));
	rec_init(&r, &b, 1, DCC_PROBE_BEGIN, 0);
	for (int i = 0; i < n; i++)
		rec_float(&r, offs[i], f[i].size, f[i].v);
	cr_assert_eq(dcc_runtime__handle_record(t.rt, r.buf, r.size), 0, "%s", rtt_err(&t));
	cr_assert_str_eq(rtt_err(&t), "");
	out = strdup(rtt_out(&t));
	rtt_close(&t);
	return out;
}

static const struct fval mix[] = {
	{ 4, 1.5 }, { 8, 3.14159 }, { 16, 2.718281828459045235360287471352662L }, { 8, -2.5e-3 },
	{ 4, -0.1f }, { 8, 1e300 },
};

Test(rt_float, trace_non_quiet_widths)
{
	/* " %10g" for a float, " %19g" for a double or long double */
	char *got = traced(mix, 6, false, NULL, 0);

	cr_assert_str_eq(got, HEADER BEGIN_LINE
			 "        1.5             3.14159             2.71828"
			 "             -0.0025       -0.1              1e+300\n");
	free(got);
}

Test(rt_float, trace_quiet_is_bare_g)
{
	char *got = traced(mix, 6, true, NULL, 0);

	cr_assert_str_eq(got, "1.53.141592.71828-0.0025-0.11e+300");
	free(got);
}

Test(rt_float, trace_classic_format_is_the_same)
{
	const char *x[] = { "tracefmt=classic" };
	char *got = traced(mix, 2, true, x, 1);

	cr_assert_str_eq(got, "1.53.14159");
	free(got);
}

Test(rt_float, trace_infinities_and_nans)
{
	const struct fval v[] = { { 8, INFINITY }, { 4, -INFINITY }, { 16, NAN }, { 8, -0.0 } };
	char *got = traced(v, 4, true, NULL, 0);

	cr_assert_str_eq(got, "inf-infnan-0");
	free(got);
}

static const char *json[] = { "oformat=json" };

Test(rt_float, json_numbers_with_the_fewest_digits)
{
	const struct fval v[] = {
		{ 4, 1.5 }, { 4, -0.1f }, { 8, 3.14159 }, { 8, 0.1 }, { 8, 1e300 },
		{ 8, -0.0 }, { 8, 4.9e-324 }, { 16, 2.718281828459045235360287471352662L },
		{ 16, 0.5 },
	};
	char *got = traced(v, 9, false, json, 1);

	cr_assert_str_eq(got,
		"{\"format\":\"dcc-json\",\"version\":1}\n"
		"{\"cpu\":0,\"id\":1,\"probe\":\"dtrace:::BEGIN\",\"clause\":\"t.d:1:1\","
		"\"output\":[{\"trace\":1.5},{\"trace\":-0.1},{\"trace\":3.14159},"
		"{\"trace\":0.1},{\"trace\":1e+300},{\"trace\":-0},{\"trace\":5e-324},"
		"{\"trace\":2.7182818284590452354},{\"trace\":0.5}]}\n");
	free(got);
}

Test(rt_float, json_nan_and_infinities_are_strings)
{
	const struct fval v[] = { { 8, NAN }, { 4, INFINITY }, { 16, -INFINITY } };
	char *got = traced(v, 3, false, json, 1);

	cr_assert(strstr(got, "\"output\":[{\"trace\":\"NaN\"},{\"trace\":\"Infinity\"},"
			      "{\"trace\":\"-Infinity\"}]}\n"), "%s", got);
	free(got);
}

static char why[256];

static int check_float_field(uint32_t size, bool as_key)
{
	struct mb b;
	size_t n;
	void *m;
	int err;

	mb_init(&b);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_PRINTF, "%f");
	mb_field(&b, DCC_K_FLOAT, size, 1, "double");
	if (as_key) {
		mb_agg(&b, "", "dcc_agg0", DCC_AGG_COUNT, 8);
		mb_key(&b, DCC_K_INT, 8, 1);
		b.keys[0].kind = DCC_K_FLOAT;
	}
	m = mb_blob(&b, &n);
	why[0] = '\0';
	err = dcc_meta_check(m, n, why, sizeof(why));
	free(m);
	return err;
}

Test(rt_float, meta_sizes_and_keys)
{
	cr_assert_eq(check_float_field(4, false), 0, "%s", why);
	cr_assert_eq(check_float_field(8, false), 0, "%s", why);
	cr_assert_eq(check_float_field(16, false), 0, "%s", why);
	cr_assert_eq(check_float_field(2, false), -EBADMSG);
	cr_assert_str_eq(why, "clause 0 action 0 argument 0: floating-point value of 2 bytes");
	cr_assert_eq(check_float_field(10, false), -EBADMSG);
	cr_assert_eq(check_float_field(8, true), -EBADMSG);
	cr_assert_str_eq(why, "aggregation 0: key 0 is floating-point");
}

Test(rt_float, record_arg_gives_the_bytes)
{
	const struct fval v = { 8, -2.5e-3 };
	const char *s = NULL;
	struct rtt t;
	struct rec r;
	struct mb b;
	size_t len = 0;
	double d;
	uint32_t off;

	mb_init(&b);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_TRACE, NULL);
	off = mb_field(&b, DCC_K_FLOAT, 8, 1, "double");
	cr_assert_eq(rtt_open(&t, &b, true, NULL, 0), 0);
	rec_init(&r, &b, 1, 7, 0);
	rec_float(&r, off, v.size, v.v);
	cr_assert_eq(dcc_runtime__record_arg(t.rt, r.buf, r.size, 0, 0, NULL, &s, &len),
		     DCC_K_FLOAT);
	cr_assert_eq(len, 8);
	memcpy(&d, s, 8);
	cr_assert(d == -2.5e-3);
	rtt_close(&t);
}
