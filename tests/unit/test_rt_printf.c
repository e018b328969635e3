/*
 * The runtime's printf engine fed with synthetic metadata and records: every
 * integer, string and floating-point conversion, flags, widths, precisions,
 * '*', size prefixes, and the value's real size and signedness deciding the
 * output (floats: C's own printf of the same value, byte for byte).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdarg.h>
#include <time.h>
#include "unit/rt_build.h"

struct targ {
	int kind;      /* DCC_K_INT, DCC_K_STRING or DCC_K_FLOAT */
	uint32_t size; /* int or float size, or string buffer size */
	int is_signed;
	int64_t i;
	const char *s;
	long double f; /* DCC_K_FLOAT: stored as a float, double or long double */
};

#define I32(v) { DCC_K_INT, 4, 1, (v), NULL, 0 }
#define U32(v) { DCC_K_INT, 4, 0, (v), NULL, 0 }
#define I64(v) { DCC_K_INT, 8, 1, (v), NULL, 0 }
#define U64(v) { DCC_K_INT, 8, 0, (int64_t)(v), NULL, 0 }
#define I16(v) { DCC_K_INT, 2, 1, (v), NULL, 0 }
#define U16(v) { DCC_K_INT, 2, 0, (v), NULL, 0 }
#define I8(v) { DCC_K_INT, 1, 1, (v), NULL, 0 }
#define U8(v) { DCC_K_INT, 1, 0, (v), NULL, 0 }
#define STR(v) { DCC_K_STRING, 32, 0, 0, (v), 0 }
#define F32(v) { DCC_K_FLOAT, 4, 1, 0, NULL, (float)(v) }
#define F64(v) { DCC_K_FLOAT, 8, 1, 0, NULL, (double)(v) }
#define F80(v) { DCC_K_FLOAT, 16, 1, 0, NULL, (long double)(v) }

static char errbuf[1024];

/* Output of printf(fmt, args...) in quiet mode; messages land in errbuf. */
static char *pf(const char *fmt, int n, const struct targ *a)
{
	uint32_t offs[16];
	struct rtt t;
	struct rec r;
	struct mb b;
	char *out;

	mb_init(&b);
	mb_probe(&b, DCC_PROBE_BEGIN, "dtrace", "", "", "BEGIN");
	mb_clause(&b);
	mb_action(&b, DCC_ACT_PRINTF, fmt);
	for (int i = 0; i < n; i++)
		offs[i] = a[i].kind == DCC_K_INT ? mb_int(&b, a[i].size, a[i].is_signed)
			: a[i].kind == DCC_K_FLOAT ? mb_field(&b, DCC_K_FLOAT, a[i].size, 1, "double")
			: mb_string(&b, a[i].size);
	cr_assert_eq(rtt_open(&t, &b, true, NULL, 0), 0, "%s", rtt_err(&t));
	rec_init(&r, &b, 1, DCC_PROBE_BEGIN, 0);
	for (int i = 0; i < n; i++) {
		if (a[i].kind == DCC_K_INT)
			rec_int(&r, offs[i], a[i].i);
		else if (a[i].kind == DCC_K_FLOAT)
			rec_float(&r, offs[i], a[i].size, a[i].f);
		else
			rec_str(&r, offs[i], a[i].s);
	}
	cr_assert_eq(dcc_runtime__handle_record(t.rt, r.buf, r.size), 0);
	out = strdup(rtt_out(&t));
	snprintf(errbuf, sizeof(errbuf), "%s", rtt_err(&t));
	rtt_close(&t);
	return out;
}

#define PF(expect, fmt, ...)                                                            \
	do {                                                                            \
		const struct targ args_[] = { __VA_ARGS__ };                            \
		char *got_ = pf(fmt, sizeof(args_) / sizeof(args_[0]), args_);         \
		cr_assert_str_eq(got_, expect, "printf(\"%s\")", fmt);                  \
		cr_assert_str_eq(errbuf, "", "unexpected message: %s", errbuf);         \
		free(got_);                                                             \
	} while (0)

#define PF0(expect, fmt)                                                                \
	do {                                                                            \
		char *got_ = pf(fmt, 0, NULL);                                          \
		cr_assert_str_eq(got_, expect);                                         \
		free(got_);                                                             \
	} while (0)

Test(rt_printf, brief_mix)
{
	PF("   42|42   |00042|+42|ff|FF|010|A|hello|hel|        hi|hi        |\n",
	   "%5d|%-5d|%05d|%+d|%x|%X|%#o|%c|%s|%.3s|%10s|%-10s|\n",
	   I32(42), I32(42), I32(42), I32(42), I32(255), I32(255), I32(8), I32('A'),
	   STR("hello"), STR("hello"), STR("hi"), STR("hi"));
}

Test(rt_printf, literal_text_and_percent)
{
	PF0("hello, world\n", "hello, world\n");
	PF0("100%\n", "100%%\n");
	PF0("%%", "%%%%");
	PF0("", "");
}

Test(rt_printf, char_value_at_its_own_width)
{
	PF("ef|-17|239|357|EF", "%x|%d|%u|%o|%X", I8(-17), I8(-17), I8(-17), I8(-17), I8(-17));
	PF("fffe|-2|65534", "%x|%d|%u", I16(-2), I16(-2), I16(-2));
	PF("ffffffff|-1|4294967295|37777777777", "%x|%i|%u|%o", I32(-1), I32(-1), I32(-1),
	   I32(-1));
	PF("ffffffffffffffff|-1|18446744073709551615", "%x|%d|%u", I64(-1), I64(-1), I64(-1));
}

Test(rt_printf, unsigned_types_print_unsigned_with_d)
{
	PF("4294967295|255|65535|18446744073709551615",
	   "%d|%d|%i|%d", U32(0xffffffff), U8(0xff), U16(0xffff), U64(~0ULL));
	PF("42|+42| 42", "%+u|%+d|% d", U32(42), I32(42), I32(42));
	/* '+' and ' ' do nothing for an unsigned value printed with %d */
	PF("42|42", "%+d|% d", U32(42), U32(42));
}

Test(rt_printf, signed_flags)
{
	PF(" 42|-42|+42|-42|+42   |-42   |   -42|-0042", "% d|% d|%+d|%+d|%-+6d|%-6d|%6d|%05d",
	   I32(42), I32(-42), I32(42), I32(-42), I32(42), I32(-42), I32(-42), I32(-42));
	PF("9223372036854775807|-9223372036854775808", "%d|%d", I64(INT64_MAX), I64(INT64_MIN));
}

Test(rt_printf, precision_on_integers)
{
	PF("     042|042|00042|", "%08.3d|%.3d|%.5u|", I32(42), I32(42), U32(42));
	PF("||0", "%.0d|%.0x|%#.0o", I32(0), I32(0), I32(0));
	PF("-007", "%.3d", I32(-7));
}

Test(rt_printf, alternate_forms)
{
	PF("0xff|0XFF|0377|0|0", "%#x|%#X|%#o|%#x|%#o", I32(255), I32(255), I32(255), I32(0),
	   I32(0));
	PF("0x00ff|  0xff|0xff  ", "%#06x|%#6x|%-#6x", I32(255), I32(255), I32(255));
}

Test(rt_printf, pointers)
{
	PF("1234|0x1234|            1234|ffffffff81000000", "%p|%#p|%16p|%p", U64(0x1234),
	   U64(0x1234), U64(0x1234), U64(0xffffffff81000000ULL));
	PF("            1234|0000000000001234|", "%?p|%0?p|", U64(0x1234), U64(0x1234));
	PF("              42|", "%?d|", I32(42));
}

Test(rt_printf, chars)
{
	PF("A|  x|x  |B", "%c|%3c|%-3c|%c", I32('A'), I8('x'), I8('x'), I64(0x142));
	PF("\\n|\\t|a|\\001|\\\\|  \\0", "%C|%C|%C|%C|%C|%4C", I8('\n'), I8('\t'), I8('a'),
	   I8(1), I8('\\'), I8(0));
}

Test(rt_printf, strings)
{
	PF("hello|     hello|hello     |hel|  hel|he   |", "%s|%10s|%-10s|%.3s|%5.3s|%-5.2s|",
	   STR("hello"), STR("hello"), STR("hello"), STR("hello"), STR("hello"),
	   STR("hello"));
	PF("abcdefgh|", "%3s|", STR("abcdefgh")); /* width never truncates */
	PF("|     |", "%s|%5s|", STR(""), STR(""));
	PF("", "%.0s", STR("xyz"));
}

Test(rt_printf, full_string_without_nul)
{
	const struct targ a[] = { { DCC_K_STRING, 4, 0, 0, "abcd", 0 } };
	char *got = pf("[%s]", 1, a);

	cr_assert_str_eq(got, "[abcd]");
	free(got);
}

Test(rt_printf, escaped_strings)
{
	PF("a\\tb\\\"c\\\\\\001 d\\n|", "%S|", STR("a\tb\"c\\\001 d\n"));
	PF("  \\a\\b|", "%6S|", STR("\a\b"));
	PF("\\r\\v\\f\\377", "%S", STR("\r\v\f\377"));
}

Test(rt_printf, star_width_and_precision)
{
	PF("    42|7   |he|  hel|", "%*d|%-*d|%.*s|%*.*s|", I32(6), I32(42), I32(4), I32(7),
	   I32(2), STR("hello"), I32(5), I32(3), STR("hello"));
	/* a negative width left-justifies, a negative precision is none */
	PF("1   |hello|", "%*d|%.*s|", I32(-4), I32(1), I32(-1), STR("hello"));
	PF("00042", "%0*d", I64(5), I32(42));
}

Test(rt_printf, size_prefixes_are_ignored)
{
	PF("300|300|300|300|ff|ffffffff|-1", "%hhd|%hd|%ld|%lld|%lx|%hhx|%Lld", I32(300), I32(300),
	   I32(300), I32(300), I32(255), I32(-1), I64(-1));
	PF("4294967295|-1", "%lu|%jd", I32(-1), I32(-1));
}

Test(rt_printf, thousands_flag_in_c_locale)
{
	PF("1234567", "%'d", I32(1234567));
}

Test(rt_printf, walltime_conversions)
{
	setenv("TZ", "UTC", 1);
	tzset();
	PF("2024 Mar  5 17:20:00|", "%Y|", I64(1709659200LL * 1000000000 + 999999999));
	PF("Tue, 05 Mar 2024 17:20:00 UTC|", "%T|", I64(1709659200LL * 1000000000));
	PF("  2024 Mar  5 17:20:00|", "%22Y|", I64(1709659200LL * 1000000000));
}

Test(rt_printf, several_records_one_line_each)
{
	struct rtt t;
	struct rec r;
	struct mb b;
	uint32_t off;

	mb_init(&b);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_PRINTF, "pid %d\n");
	off = mb_int(&b, 4, 1);
	cr_assert_eq(rtt_open(&t, &b, true, NULL, 0), 0);
	for (int i = 1; i <= 3; i++) {
		rec_init(&r, &b, 1, 7, 0);
		rec_int(&r, off, i * 100);
		cr_assert_eq(dcc_runtime__handle_record(t.rt, r.buf, r.size), 0);
	}
	cr_assert_str_eq(rtt_out(&t), "pid 100\npid 200\npid 300\n");
	rtt_close(&t);
}

Test(rt_printf, unsupported_conversion_is_reported_once)
{
	struct rtt t;
	struct rec r;
	struct mb b;

	mb_init(&b);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_PRINTF, "a=%d b=%w\n");
	mb_int(&b, 4, 1);
	mb_int(&b, 4, 1);
	cr_assert_eq(rtt_open(&t, &b, true, NULL, 0), 0);
	rec_init(&r, &b, 1, 7, 0);
	rec_int(&r, 16, 5);
	dcc_runtime__handle_record(t.rt, r.buf, r.size);
	dcc_runtime__handle_record(t.rt, r.buf, r.size);
	cr_assert_str_eq(rtt_out(&t), "a=5 b=a=5 b=");
	cr_assert_str_eq(rtt_err(&t),
			 "dtrun: printf in t.d:1:1: "
			 "conversion %w is not supported by this runtime\n");
	rtt_close(&t);
}

Test(rt_printf, kind_mismatch_and_missing_argument)
{
	const struct targ s[] = { STR("x") };
	const struct targ i[] = { I32(1) };
	char *got;

	got = pf("<%d>", 1, s);
	cr_assert_str_eq(got, "<");
	cr_assert_str_eq(errbuf, "dtrun: printf in t.d:1:1: %d needs an integer argument\n");
	free(got);
	got = pf("<%s>", 1, i);
	cr_assert_str_eq(errbuf, "dtrun: printf in t.d:1:1: %s needs a string argument\n");
	free(got);
	got = pf("%d %d", 1, i);
	cr_assert_str_eq(got, "1 ");
	cr_assert_str_eq(errbuf, "dtrun: printf in t.d:1:1: missing argument for %d\n");
	free(got);
	got = pf("<%f>", 1, i);
	cr_assert_str_eq(errbuf, "dtrun: printf in t.d:1:1: %f needs a floating-point argument\n");
	free(got);
	{
		const struct targ d[] = { F64(1.5) };

		got = pf("<%x>", 1, d);
		cr_assert_str_eq(got, "<");
		cr_assert_str_eq(errbuf, "dtrun: printf in t.d:1:1: %x needs an integer argument\n");
		free(got);
	}
	got = pf("50%", 0, NULL);
	cr_assert_str_eq(got, "50");
	cr_assert_str_eq(errbuf, "dtrun: printf in t.d:1:1: incomplete conversion \"%\"\n");
	free(got);
}

Test(rt_printf, float_conversions)
{
	PF("3.141590|3.141590e+00|3.141590E+00|3.14159|3.14159", "%f|%e|%E|%g|%G", F64(3.14159),
	   F64(3.14159), F64(3.14159), F64(3.14159), F64(3.14159));
	PF("-0.002500|-2.5e-03|-0.0025|1e+300|1E+300", "%f|%.1e|%g|%g|%G", F64(-2.5e-3),
	   F64(-2.5e-3), F64(-2.5e-3), F64(1e300), F64(1e300));
	PF("0.000000|-0.000000|0|-0|1.23457e+08|4.94066e-324", "%f|%f|%g|%g|%g|%g", F64(0.0),
	   F64(-0.0), F64(0.0), F64(-0.0), F64(123456789.125), F64(4.9e-324));
}

Test(rt_printf, float_is_promoted_to_double)
{
	/* -0.1f is -0.100000001490116...: its digits show it was never a double */
	PF("1.500000|-0.100000|-0.1000000015|3.4e+38", "%f|%f|%.10f|%g", F32(1.5), F32(-0.1f),
	   F32(-0.1f), F32(3.4e38f));
}

Test(rt_printf, long_double_with_or_without_L)
{
	PF("2.718281828459045235|2.718282|2.71828|-1e-4000", "%.18Lf|%f|%g|%Lg",
	   F80(2.718281828459045235360287471352662L), F80(2.718281828459045235360287471352662L),
	   F80(2.718281828459045235360287471352662L), F80(-1.0e-4000L));
}

Test(rt_printf, float_flags_width_precision)
{
	PF("+3.14|  3.14|3.14  |003.14|+3.1416e+00| 3.1|3.|3.000|3.e+00",
	   "%+.2f|%6.2f|%-6.2f|%06.2f|%+.4e|% .1f|%#.0f|%#.4g|%#.0e", F64(3.14159), F64(3.14159),
	   F64(3.14159), F64(3.14159), F64(3.14159), F64(3.14159), F64(3.0), F64(3.0), F64(3.0));
	PF("-0000002.50E-03|-2.5e-03      |", "%+015.2E|%-+14.1e|", F64(-2.5e-3), F64(-2.5e-3));
}

Test(rt_printf, float_star_width_and_precision)
{
	PF("     3.142|3.1e+00   |3.1|1.500000 |", "%*.*f|%-*.*e|%.*g|%*f|", I32(10), I32(3),
	   F64(3.14159), I32(10), I32(1), F64(3.14159), I32(2), F32(3.14159), I32(-9), F64(1.5));
	/* a negative precision is none: the default 6 */
	PF("3.141590", "%.*f", I32(-1), F64(3.14159));
}

Test(rt_printf, float_infinities_and_nans)
{
	PF("inf|-inf|nan|-nan|INF|NAN|     inf|-inf     |     inf", "%f|%e|%g|%f|%E|%G|%8g|%-9f|%08f",
	   F64(INFINITY), F64(-INFINITY), F64(NAN), F64(-NAN), F64(INFINITY), F32(NAN),
	   F80(INFINITY), F64(-INFINITY), F64(INFINITY));
}

Test(rt_printf, float_size_prefixes_are_ignored)
{
	PF("1.500000|1.500000|1.500000|1.500000", "%lf|%Lf|%hf|%llf", F32(1.5), F64(1.5),
	   F80(1.5), F64(1.5));
}

/* C's printf with the same spec on the value at its own type: a float as a
 * double, a long double with L in front of the conversion, whatever size
 * prefix the D format had. */
static void c_format(char *out, size_t n, const char *spec, const struct targ *a)
{
	char f[32];
	size_t k = 0, len = strlen(spec);

	for (size_t i = 0; i + 1 < len; i++)
		if (!strchr("hlLjzt", spec[i]))
			f[k++] = spec[i];
	if (a->size == 16)
		f[k++] = 'L';
	f[k++] = spec[len - 1];
	f[k] = '\0';
	if (a->size == 16)
		snprintf(out, n, f, a->f);
	else if (a->size == 8)
		snprintf(out, n, f, (double)a->f);
	else
		snprintf(out, n, f, (double)(float)a->f);
}

Test(rt_printf, floats_match_c_printf)
{
	static const char *const specs[] = {
		"%e", "%E", "%f", "%g", "%G", "%.0e", "%.0f", "%.0g", "%#.0e", "%#.0f", "%#g",
		"%#.3G", "%+f", "% e", "%-14.3g", "%014.5E", "%+-#12.0f", "%.20g", "%.3g",
		"%-+ #010.2e", "%0+25.17e", "% 30.10f", "%.25Lf", "%-#20.12G",
	};
	static const long double vals[] = {
		0.0, -0.0, 1.0, 0.5, -1.5, 3.14159, -2.5e-3, 1e300, -1e-300, 4.9e-324, 1e-5,
		123456789.125, 9.999999e9, 0.1, 2.718281828459045235360287471352662L, 1e4000L,
		INFINITY, -NAN,
	};
	static const uint32_t sizes[] = { 4, 8, 16 };
	static char want[8192];

	for (unsigned z = 0; z < 3; z++)
		for (unsigned v = 0; v < sizeof(vals) / sizeof(vals[0]); v++)
			for (unsigned i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
				struct targ a = F80(vals[v]);
				char *got;

				a.size = sizes[z];
				c_format(want, sizeof(want), specs[i], &a);
				got = pf(specs[i], 1, &a);
				cr_assert_str_eq(got, want, "%s of %Lg as %u bytes", specs[i],
						 vals[v], sizes[z]);
				cr_assert_str_eq(errbuf, "");
				free(got);
			}
}
