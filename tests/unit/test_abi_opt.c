/*
 * headers/dcc/abi_opt.h: the option table and its value parsers, which
 * sema, codegen, the loader and the runtime all use. Every parser refuses a
 * value whole: an unknown suffix is an error, never ignored.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>
#include <dcc/abi_opt.h>

Test(abi_opt, sizes)
{
	static const struct {
		const char *s;
		uint64_t bytes;
	} ok[] = {
		{ "0", 0 }, { "4096", 4096 }, { "64k", 64 << 10 }, { "64K", 64 << 10 },
		{ "4m", 4 << 20 }, { "4M", 4 << 20 }, { "1g", 1ULL << 30 }, { "2t", 2ULL << 40 },
		{ "0x10", 16 }, { "010", 8 },
	};
	static const char *const bad[] = {
		"", "-1", "+1", "4q", "4mm", "4mb", "m", " 4m", "4m ", "4 m", "k4",
		"99999999999999999999", "20000000t", "0x", "4.5m",
	};
	uint64_t v;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		cr_assert_eq(abi_opt_parse_size(ok[i].s, &v), 0, "\"%s\"", ok[i].s);
		cr_expect_eq(v, ok[i].bytes, "\"%s\" is %llu", ok[i].s, (unsigned long long)v);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_expect_eq(abi_opt_parse_size(bad[i], &v), -EINVAL, "\"%s\"", bad[i]);
	cr_expect_eq(abi_opt_parse_size(NULL, &v), -EINVAL);
}

Test(abi_opt, rates)
{
	static const struct {
		const char *s;
		uint64_t ns;
	} ok[] = {
		{ "10hz", 100000000 }, { "10Hz", 100000000 }, { "1hz", 1000000000 }, { "0hz", 0 },
		{ "1s", 1000000000 }, { "2sec", 2000000000 }, { "100ms", 100000000 },
		{ "100msec", 100000000 }, { "5us", 5000 }, { "7ns", 7 }, { "500", 500 },
		{ "1m", 60000000000ULL }, { "1min", 60000000000ULL }, { "1h", 3600000000000ULL },
		{ "1d", 86400000000000ULL },
	};
	static const char *const bad[] = {
		"", "-1", "hz", "10parsecs", "10hzz", "1 s", "1ss", "99999999999999999999",
		"999999999999d",
	};
	uint64_t v;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		cr_assert_eq(abi_opt_parse_rate(ok[i].s, &v), 0, "\"%s\"", ok[i].s);
		cr_expect_eq(v, ok[i].ns, "\"%s\" is %llu", ok[i].s, (unsigned long long)v);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_expect_eq(abi_opt_parse_rate(bad[i], &v), -EINVAL, "\"%s\"", bad[i]);
}

Test(abi_opt, numbers_and_booleans)
{
	uint64_t u;
	int64_t i;
	bool on;

	cr_expect_eq(abi_opt_parse_count("12", &u), 0);
	cr_expect_eq(u, 12);
	cr_expect_eq(abi_opt_parse_count("-1", &u), -EINVAL);
	cr_expect_eq(abi_opt_parse_count("2x", &u), -EINVAL);
	cr_expect_eq(abi_opt_parse_count("", &u), -EINVAL);
	cr_expect_eq(abi_opt_parse_int("-1", &i), 0);
	cr_expect_eq(i, -1);
	cr_expect_eq(abi_opt_parse_int("1k", &i), -EINVAL);
	cr_expect_eq(abi_opt_parse_int("", &i), -EINVAL);
	cr_expect_eq(abi_opt_parse_bool(NULL, &on), 0);
	cr_expect(on);
	cr_expect_eq(abi_opt_parse_bool("YES", &on), 0);
	cr_expect(on);
	cr_expect_eq(abi_opt_parse_bool("UnSeT", &on), 0);
	cr_expect_not(on);
	cr_expect_eq(abi_opt_parse_bool("disabled", &on), 0);
	cr_expect_not(on);
	cr_expect_eq(abi_opt_parse_bool("please", &on), -EINVAL);
	cr_expect_eq(abi_opt_parse_bool("1", &on), -EINVAL);
}

Test(abi_opt, table)
{
	unsigned n;
	const struct abi_opt *t = abi_opt_table(&n);

	cr_assert_gt(n, 50);
	for (unsigned i = 0; i < n; i++) {
		cr_expect_eq(abi_opt_find(t[i].name), &t[i], "%s is listed twice", t[i].name);
		/* every default is a value of its own type */
		if (t[i].def)
			cr_expect_eq(abi_opt_check(&t[i], t[i].def), 0, "%s=%s", t[i].name,
				     t[i].def);
		cr_expect_eq(t[i].type == ABI_OPT_ENUM, t[i].values != NULL, "%s", t[i].name);
	}
	cr_expect_null(abi_opt_find("bogus"));
	cr_expect_null(abi_opt_find(""));
}

Test(abi_opt, check_by_type)
{
	cr_expect_eq(abi_opt_check(abi_opt_find("quiet"), NULL), 0);
	cr_expect_eq(abi_opt_check(abi_opt_find("quiet"), "off"), 0);
	cr_expect_eq(abi_opt_check(abi_opt_find("bufsize"), NULL), -EINVAL);
	cr_expect_eq(abi_opt_check(abi_opt_find("bufsize"), "4q"), -EINVAL);
	cr_expect_eq(abi_opt_check(abi_opt_find("strsize"), "1k"), 0);
	cr_expect_eq(abi_opt_check(abi_opt_find("nspec"), "-1"), -EINVAL);
	cr_expect_eq(abi_opt_check(abi_opt_find("cpu"), "-1"), 0);
	cr_expect_eq(abi_opt_check(abi_opt_find("oformat"), "json"), 0);
	cr_expect_eq(abi_opt_check(abi_opt_find("oformat"), "js"), -EINVAL);
	cr_expect_eq(abi_opt_check(abi_opt_find("oformat"), "jsonx"), -EINVAL);
	cr_expect_eq(abi_opt_check(abi_opt_find("oformat"), ""), -EINVAL);
	cr_expect_eq(abi_opt_check(abi_opt_find("encoding"), "utf8"), 0);
	cr_expect_eq(abi_opt_check(abi_opt_find("define"), "X=1"), 0);
	/* what shapes the object is fixed when it is compiled */
	cr_expect(abi_opt_find("strsize")->flags & ABI_OPT_COMPILE);
	cr_expect(abi_opt_find("dynvarsize")->flags & ABI_OPT_COMPILE);
	cr_expect_not(abi_opt_find("bufsize")->flags & ABI_OPT_COMPILE);
	cr_expect_not(abi_opt_find("switchrate")->flags & ABI_OPT_COMPILE);
}
