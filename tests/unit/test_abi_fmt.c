/*
 * headers/dcc/abi_fmt.h: the printf-format tokenizer sema and the runtime
 * share; each spec's flags, width, precision, '@', length modifier,
 * conversion, class and length.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <dcc/abi_fmt.h>

static struct abi_fmt_spec scan(const char *f)
{
	struct abi_fmt_spec sp;

	abi_fmt_scan(f, strlen(f), &sp);
	return sp;
}

#define SPEC(f, flags_, width_, prec_, agg_, length_, conv_, cls_, len_)                  \
	do {                                                                                 \
		struct abi_fmt_spec s_ = scan(f);                                           \
		cr_expect_str_eq(s_.flags, flags_, "%s flags", f);                           \
		cr_expect_eq(s_.width, width_, "%s width %d", f, s_.width);                  \
		cr_expect_eq(s_.prec, prec_, "%s precision %d", f, s_.prec);                 \
		cr_expect_eq(s_.agg, agg_, "%s @", f);                                       \
		cr_expect_str_eq(s_.length, length_, "%s length", f);                        \
		cr_expect_eq(s_.conv, conv_, "%s conversion '%c'", f, s_.conv);             \
		cr_expect_eq(s_.cls, cls_, "%s class %d", f, s_.cls);                        \
		cr_expect_eq(s_.len, (size_t)(len_), "%s length %zu", f, s_.len);           \
	} while (0)

Test(abi_fmt, plain_conversions_and_classes)
{
	SPEC("%d", "", -1, -1, false, "", 'd', ABI_FMT_INT, 2);
	SPEC("%%", "", -1, -1, false, "", '%', ABI_FMT_PERCENT, 2);
	SPEC("%s|", "", -1, -1, false, "", 's', ABI_FMT_STRING, 2);
	SPEC("%S", "", -1, -1, false, "", 'S', ABI_FMT_STRING, 2);
	SPEC("%g", "", -1, -1, false, "", 'g', ABI_FMT_FLOAT, 2);
	SPEC("%Y", "", -1, -1, false, "", 'Y', ABI_FMT_TIME, 2);
	SPEC("%T", "", -1, -1, false, "", 'T', ABI_FMT_TIME, 2);
	SPEC("%C", "", -1, -1, false, "", 'C', ABI_FMT_CHAR, 2);
	SPEC("%a", "", -1, -1, false, "", 'a', ABI_FMT_KADDR, 2);
	SPEC("%A", "", -1, -1, false, "", 'A', ABI_FMT_UADDR, 2);
	SPEC("%k", "", -1, -1, false, "", 'k', ABI_FMT_STACK, 2);
	SPEC("%p", "", -1, -1, false, "", 'p', ABI_FMT_INT, 2);
	SPEC("%w", "", -1, -1, false, "", 'w', ABI_FMT_BAD, 2);
	for (const char *c = "diouxXc"; *c; c++) {
		char f[3] = { '%', *c, 0 };

		cr_expect_eq(scan(f).cls, ABI_FMT_INT, "%s", f);
	}
}

Test(abi_fmt, flags_width_precision)
{
	SPEC("%-10s", "-", 10, -1, false, "", 's', ABI_FMT_STRING, 5);
	SPEC("%+ #0'5.3d", "+ #0'", 5, 3, false, "", 'd', ABI_FMT_INT, 10);
	SPEC("%--5d", "-", 5, -1, false, "", 'd', ABI_FMT_INT, 5);
	SPEC("%.d", "", -1, 0, false, "", 'd', ABI_FMT_INT, 3);
	SPEC("%*.*s", "", ABI_FMT_STAR, ABI_FMT_STAR, false, "", 's', ABI_FMT_STRING, 5);
	SPEC("%0*d", "0", ABI_FMT_STAR, -1, false, "", 'd', ABI_FMT_INT, 4);
	SPEC("%?p", "", 16, -1, false, "", 'p', ABI_FMT_INT, 3);
	SPEC("%99999999d", "", ABI_FMT_MAX_WIDTH, -1, false, "", 'd', ABI_FMT_INT, 10);
}

Test(abi_fmt, length_modifiers)
{
	static const char *const mods[] = { "h", "hh", "l", "ll", "z", "t", "j", "L" };

	for (size_t i = 0; i < sizeof(mods) / sizeof(mods[0]); i++) {
		char f[8];

		snprintf(f, sizeof(f), "%%%sd", mods[i]);
		SPEC(f, "", -1, -1, false, mods[i], 'd', ABI_FMT_INT, strlen(f));
	}
	SPEC("%Lf", "", -1, -1, false, "L", 'f', ABI_FMT_FLOAT, 3);
	SPEC("%Lld", "", -1, -1, false, "Ll", 'd', ABI_FMT_INT, 4);
	/* 'q' is no length modifier D knows: it is the conversion */
	SPEC("%qd", "", -1, -1, false, "", 'q', ABI_FMT_BAD, 2);
}

Test(abi_fmt, printa_aggregation_value)
{
	SPEC("%@d", "", -1, -1, true, "", 'd', ABI_FMT_INT, 3);
	SPEC("%@10u", "", 10, -1, true, "", 'u', ABI_FMT_INT, 5);
	SPEC("%-10@d", "-", 10, -1, true, "", 'd', ABI_FMT_INT, 6);
	SPEC("%10@-5d", "-", 5, -1, true, "", 'd', ABI_FMT_INT, 7);
	SPEC("%@lld", "", -1, -1, true, "ll", 'd', ABI_FMT_INT, 5);
}

Test(abi_fmt, format_ending_inside_a_spec)
{
	SPEC("%", "", -1, -1, false, "", 0, ABI_FMT_BAD, 1);
	SPEC("%-5", "-", 5, -1, false, "", 0, ABI_FMT_BAD, 3);
	SPEC("%ll", "", -1, -1, false, "ll", 0, ABI_FMT_BAD, 3);
	/* n bounds the bytes read */
	struct abi_fmt_spec sp;

	abi_fmt_scan("%5d", 2, &sp);
	cr_expect_eq(sp.conv, 0);
	cr_expect_eq(sp.width, 5);
}
