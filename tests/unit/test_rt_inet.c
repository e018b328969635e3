/*
 * Network address values (DCC_K_INET, from inet_ntoa(), inet_ntoa6(),
 * inet_ntop() and link_ntop()) as the runtime writes them: DTrace's text
 * for each form, through printf %s (with widths), trace() quiet and
 * non-quiet, and the metadata check of their size.
 */
#include <criterion/criterion.h>
#include "unit/rt_build.h"

#define HEADER "CPU     ID                    FUNCTION:NAME\n"
#define BEGIN_LINE "  0      1                           :BEGIN "

struct addr {
	uint64_t form;
	uint8_t b[16];
};

/* link_ntop()'s values: the form, then up to 20 bytes */
struct link {
	uint64_t form;
	uint8_t b[24];
};

/* One clause: printf(fmt, a) for each address, or trace(a) if fmt is NULL;
 * the values are size bytes each (struct addr or struct link). */
static char *shown_of(const char *fmt, const void *a, uint32_t size, int n, bool quiet)
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
		mb_action(&b, fmt ? DCC_ACT_PRINTF : DCC_ACT_TRACE, fmt);
		offs[i] = mb_field(&b, DCC_K_INET, size, 0, "inet_ntop()");
	}
	cr_assert_eq(rtt_open(&t, &b, quiet, NULL, 0), 0, "%s", rtt_err(&t));
	rec_init(&r, &b, 1, DCC_PROBE_BEGIN, 0);
	for (int i = 0; i < n; i++)
		memcpy(r.buf + offs[i], (const char *)a + i * size, size);
	cr_assert_eq(dcc_runtime__handle_record(t.rt, r.buf, r.size), 0, "%s", rtt_err(&t));
	cr_assert_str_eq(rtt_err(&t), "");
	out = strdup(rtt_out(&t));
	rtt_close(&t);
	return out;
}

static char *shown(const char *fmt, const struct addr *a, int n, bool quiet)
{
	return shown_of(fmt, a, sizeof(*a), n, quiet);
}

static const struct addr addrs[] = {
	{ DCC_INET_4, { 10, 0, 0, 1 } },
	{ DCC_INET_4, { 255, 255, 255, 255 } },
	/* 1:2:3:4:5:6:0:0: a run at the end */
	{ DCC_INET_6, { 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 0, 0, 0 } },
	/* 0:0:1:0:0:0:0:1: the longer run wins */
	{ DCC_INET_6, { 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 } },
	/* IPv4-compatible ::0.0.1.2: DTrace writes the zero groups out */
	{ DCC_INET_6, { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2 } },
	{ DCC_INET_6A, { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2 } },
	/* ::ffff:127.0.0.1 */
	{ DCC_INET_6A, { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 1 } },
	{ DCC_INET_6, { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 1 } },
	/* ::1 is not IPv4-compatible, in either form */
	{ DCC_INET_6A, { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 } },
	/* no zero group at all, leading zeros dropped, lower case */
	{ DCC_INET_6, { 0xab, 0xcd, 0, 0x12, 0x0f, 0xff, 0xff, 0xff, 0x10, 0, 1, 0, 0, 0x10,
			0xfe, 0xdc } },
	{ 99, { 0 } },
};
#define NADDRS (int)(sizeof(addrs) / sizeof(addrs[0]))

Test(rt_inet, printf_s_is_dtraces_text)
{
	char *got = shown("%s|", addrs, NADDRS, true);

	cr_assert_str_eq(got, "10.0.0.1|255.255.255.255|1:2:3:4:5:6::|0:0:1::1|"
			 "0:0:0:0:0:0:0.0.1.2|0.0.1.2|127.0.0.1|::ffff:127.0.0.1|::1|"
			 "abcd:12:fff:ffff:1000:100:10:fedc|?|");
	free(got);
}

Test(rt_inet, printf_width_and_precision_apply_to_the_text)
{
	static const char *const fmts[3] = { "[%-12s]", "[%12s]", "[%.4s]" };
	static const char *const want[3] = { "[10.0.0.1    ]", "[    10.0.0.1]", "[10.0]" };

	for (int i = 0; i < 3; i++) {
		char *got = shown(fmts[i], addrs, 1, true);

		cr_assert_str_eq(got, want[i]);
		free(got);
	}
}

Test(rt_inet, trace_prints_a_string)
{
	char *got = shown(NULL, addrs, 2, true);

	cr_assert_str_eq(got, "10.0.0.1255.255.255.255");
	free(got);
	got = shown(NULL, addrs, 1, false);
	cr_assert_str_eq(got, HEADER BEGIN_LINE "  10.0.0.1                         \n");
	free(got);
}

Test(rt_inet, meta_size_is_checked)
{
	static char why[256];
	struct mb b;
	size_t n;

	mb_init(&b);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_TRACE, NULL);
	mb_field(&b, DCC_K_INET, 16, 0, "inet_ntoa()");
	void *m = mb_blob(&b, &n);
	cr_assert_lt(dcc_meta_check(m, n, why, sizeof(why)), 0);
	cr_assert_str_eq(why, "clause 0 action 0 argument 0: network address of 16 bytes");
	free(m);
}

/* link_ntop(): two-digit lower-case hex bytes separated by ':', as DTrace
 * for Linux writes them (its tst.link_ntop.r), "" for an unknown type */
Test(rt_inet, link_addresses_are_colon_separated_hex_bytes)
{
	static const struct link links[] = {
		{ DCC_INET_ETHER, { 0, 1, 2, 3, 4, 5 } },
		{ DCC_INET_ETHER, { 0x02, 0x08, 0x20, 0xac, 0x04, 0x0e, 0xff } },
		{ DCC_INET_IB, { 0x80, 0x00, 0x04, 0x04, 0xfe, 0x8c, 0x41, 0x7a, 0, 0, 0, 0, 0,
				 0x02, 0xc9, 0x02, 0x00, 0x29, 0x31, 0xcd, 0xff } },
		{ DCC_INET_LINK_NONE, { 1, 2, 3 } },
	};
	char *got = shown_of("%s|", links, sizeof(links[0]), 4, true);

	cr_assert_str_eq(got, "00:01:02:03:04:05|02:08:20:ac:04:0e|"
			 "80:00:04:04:fe:8c:41:7a:00:00:00:00:00:02:c9:02:00:29:31:cd||");
	free(got);
	got = shown_of(NULL, links, sizeof(links[0]), 1, false);
	cr_assert_str_eq(got, HEADER BEGIN_LINE "  00:01:02:03:04:05                \n");
	free(got);
}

/* The form comes from the record, the size from the metadata: an
 * InfiniBand form (20 bytes) in a 24-byte inet_ntoa() value is "?", not
 * four bytes read past the value (fuzz_consumer found the read in a printa
 * key); an Ethernet form (6 bytes) fits and is written. */
Test(rt_inet, link_form_longer_than_the_value_is_unknown)
{
	static const struct addr a[] = {
		{ DCC_INET_IB, { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 } },
		{ DCC_INET_ETHER, { 0xa, 0xb, 0xc, 0xd, 0xe, 0xf, 0x10 } },
	};
	char *got = shown("%s|", a, 2, true);

	cr_assert_str_eq(got, "?|0a:0b:0c:0d:0e:0f|");
	free(got);
}
