/*
 * Every aggregating function through the kernel, with values a trigger
 * makes exactly (self->i = 1..10 on ten getppid() calls): count, sum
 * normalized by a non-divisor, avg, min, max, stddev's integer rounding,
 * quantize with negative values, lquantize, llquantize, integer keys sorted
 * by value, trunc() to the top 3 and a formatted printa; and drops of
 * dynamic variables and of aggregation keys made on purpose with a tiny
 * dynvarsize or aggsize.
 * tst.aggs_all.out was checked by hand against D-LANGUAGE.md §11.
 */
#include <bpf/libbpf.h>
#include "e2e/e2e.h"

E2E_TEST(aggs, every_function_with_exact_values)
{
	const char *obj = e2e_build_src("tst.aggs_all");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s 10", e2e_trigger("getppid_n")), obj, NULL);
	e2e_expect_script_out(&r, 0, "tst.aggs_all");
	run_result_free(&r);
}

E2E_TEST(aggs, dynamic_variable_drops_are_counted_exactly)
{
	/* 100 distinct keys into a map of 64 entries (dcc's floor): 36 drops */
	const char *obj = e2e_build("dynvar",
		"#pragma D option quiet\n"
		"#pragma D option dynvarsize=1k\n"
		"syscall::getppid:entry /pid == $target/ { n++; seen[n] = 1; }\n"
		"END { printf(\"%d %d %d\\n\", n, seen[64], seen[65]); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s 100", e2e_trigger("getppid_n")), obj, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	e2e_assert_file("stdout", r.out, "aggs.dynamic_variable_drops_are_counted_exactly");
	cr_assert(strstr(r.err, "36 dynamic variable drops"), "stderr: %s", r.err);
	run_result_free(&r);
}

/* The sum of the "dtrun: N aggregation drop(s) on CPU c" lines of stderr. */
static unsigned long agg_drops(const char *err)
{
	unsigned long sum = 0;
	for (const char *p = strstr(err, "dtrun: "); p; p = strstr(p + 1, "dtrun: ")) {
		char *end;
		unsigned long n = strtoul(p + 7, &end, 10);
		if (!strncmp(end, " aggregation drop", 17))
			sum += n;
	}
	return sum;
}

E2E_TEST(aggs, aggregation_key_drops_are_counted_exactly)
{
	/* the keyed aggregation's map is allocated key by key
	 * (BPF_F_NO_PREALLOC): it still takes exactly 64 keys (dcc's floor for
	 * a tiny aggsize), and the other 36 of 100 distinct keys are drops */
	const char *obj = e2e_build("aggdrops",
		"#pragma D option quiet\n"
		"#pragma D option aggsize=1k\n"
		"syscall::getppid:entry /pid == $target/ { n++; @k[n] = count(); @all = count(); }\n"
		"END { trunc(@k); printa(\"%@d\\n\", @all); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s 100", e2e_trigger("getppid_n")), obj, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(!strncmp(r.out, "100\n", 4), "stdout: %s", r.out);
	cr_assert_eq(agg_drops(r.err), 36, "stderr: %s", r.err);
	run_result_free(&r);
}

/* A key-by-key map keeps one spare value a CPU, refilled after the
 * program: four new keys in one timer firing (interrupts off, two clauses)
 * were one key and three drops. An aggregation updated at two sites or
 * more is preallocated: every key is counted, none dropped. */
E2E_TEST(aggs, new_keys_in_one_timer_firing_are_all_counted)
{
	const char *obj = e2e_build("tickkeys",
		"#pragma D option quiet\n"
		"tick-1ms { @k[1] = count(); @k[2] = count(); @k[3] = count(); }\n"
		"tick-1ms { @k[4] = count(); exit(0); }\n"
		"END { printa(\"%d %@d\\n\", @k); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	cr_assert_eq(agg_drops(r.err), 0, "stderr: %s", r.err);
	e2e_expect(&r, 0, "1 1\n2 1\n3 1\n4 1\n\n");
	run_result_free(&r);
}

E2E_TEST(aggs, string_tuple_keys_count_each_syscall)
{
	const char *obj = e2e_build("tuple",
		"#pragma D option quiet\n"
		"syscall::getppid:entry, syscall::getppid:return /pid == $target/ {\n"
		"	@[execname, probefunc, probename] = count();\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s 7", e2e_trigger("getppid_n")), obj, NULL);
	/* string keys print as "  %-50s", the count as " %16lld" (§11.2) */
	const char *row = "  %-50s  %-50s  %-50s %16d\n";
	e2e_expect(&r, 0, e2e_fmt(e2e_fmt("\n%s%s", row, row), "getppid_n", "getppid", "entry", 7,
				  "getppid_n", "getppid", "return", 7));
	run_result_free(&r);
}

/* execname is written straight into the key (issue 13): an integer key
 * after it and one before it land in their own slots. */
E2E_TEST(aggs, execname_keys_next_to_integer_keys)
{
	const char *obj = e2e_build("mixed",
		"#pragma D option quiet\n"
		"syscall::getppid:entry /pid == $target/ {\n"
		"	@a[execname, 7] = count();\n"
		"	@b[8, execname] = sum(3);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s 5", e2e_trigger("getppid_n")), obj, NULL);
	e2e_expect(&r, 0, e2e_fmt("\n  %-50s %8d %16d\n %8d  %-50s %16d\n", "getppid_n", 7, 5, 8,
				  "getppid_n", 15));
	run_result_free(&r);
}

/* Ten getppid() calls on CPU 0, self->i = 1..10: quantize buckets 1, 2, 4,
 * 8 hold 1, 2, 4, 3; lquantize(0, 10, 5) buckets 0, 5, >= 10 hold 4, 5, 1;
 * odd and even count 5 each. */
static const char *shapes_src =
	"#pragma D option quiet\n"
	"#pragma D option aggpack\n"
	"#pragma D option agghist\n"
	"#pragma D option encoding=ascii\n"
	"syscall::getppid:entry /pid == $target/ {\n"
	"	self->i++;\n"
	"	@q = quantize(self->i);\n"
	"	@l = lquantize(self->i, 0, 10, 5);\n"
	"	@c[self->i % 2 ? \"odd\" : \"even\"] = count();\n"
	"}\n";

E2E_TEST(aggs, aggpack_and_agghist_shapes)
{
	/* levels (n * 7 / total + .5) of "__xxxxXX"; bars of 40 for agghist */
	const char *obj = e2e_build("shapes", shapes_src);
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("taskset -c 0 %s 10", e2e_trigger("getppid_n")), obj,
		NULL);
	e2e_expect_out(&r, 0, "aggs.aggpack_and_agghist_shapes");
	run_result_free(&r);
}

E2E_TEST(aggs, aggpercpu_shows_where_the_counts_were_made)
{
	/* the trigger runs on CPU 1: every count is there, the other CPUs show 0 */
	const char *obj = e2e_build("percpu",
		"#pragma D option quiet\n"
		"syscall::getppid:entry /pid == $target/ { @ = count(); }\n");
	int ncpus = libbpf_num_possible_cpus();
	char want[8192];
	size_t n;
	struct run_result r;

	cr_assert_geq(ncpus, 2);
	e2e_run(&r, DTRUN_BIN, "-x", "aggpercpu", "-c",
		e2e_fmt("taskset -c 1 %s 12", e2e_trigger("getppid_n")), obj, NULL);
	n = (size_t)snprintf(want, sizeof(want), "\n %16d", 12);
	for (int c = 0; c < ncpus && n < sizeof(want) - 64; c++)
		n += (size_t)snprintf(want + n, sizeof(want) - n, "\n    [CPU %d] %16d", c,
				      c == 1 ? 12 : 0);
	snprintf(want + n, sizeof(want) - n, "\n");
	e2e_expect(&r, 0, want);
	run_result_free(&r);
}

/* A '*' in a printa() format takes its width from the next key, as a
 * conversion takes its value: a negative width left-justifies. */
E2E_TEST(aggs, printa_star_widths_come_from_keys)
{
	const char *obj = e2e_build("starwidth",
		"#pragma D option quiet\n"
		"BEGIN {\n"
		"	@[6, 100] = sum(1); @[-6, 200] = sum(2); @[3, 5] = sum(3);\n"
		"	printa(\"[%-*d]\\n\", @); printa(\"[%*d]\\n\", @);\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0, "[100   ]\n[200   ]\n[5  ]\n[   100]\n[200   ]\n[  5]\n\n");
	run_result_free(&r);
}

/* The first use of an aggregation types its keys: later integer keys of
 * another size are converted to that type (1L and 0x100000001L are the int 1) */
E2E_TEST(aggs, first_use_types_the_keys)
{
	struct run_result r;
	e2e_run(&r, DCC_BIN, "run", "-q", "-n", "BEGIN { @[(int)1, 2] = count(); @[1L, 2] = count(); "
		"@[0x100000001L, 2] = count(); @[(long)-1, 3] = count(); exit(0); }", NULL);
	e2e_expect(&r, 0, "\n       -1        3                1\n"
			  "        1        2                3\n");
	run_result_free(&r);
}

/* setopt() with a value the clause computes: aggsortpos set from
 * lltostr() and strjoin() between two printa() of the same aggregations. */
E2E_TEST(aggs, setopt_value_computed_when_the_clause_runs)
{
	const char *obj = e2e_build("setopt_computed",
		"#pragma D option quiet\n"
		"BEGIN {\n"
		"	@a[\"x\"] = sum(1); @a[\"y\"] = sum(3); @a[\"z\"] = sum(2);\n"
		"	@b[\"x\"] = sum(30); @b[\"y\"] = sum(10); @b[\"z\"] = sum(20);\n"
		"}\n"
		"BEGIN { n = 1; setopt(\"aggsortpos\", lltostr(n)); printa(\"%s %@d %@d\\n\", @a, @b); }\n"
		"BEGIN {\n"
		"	setopt(\"aggsortpos\", strjoin(\"\", \"0\"));\n"
		"	printa(\"%s %@d %@d\\n\", @a, @b);\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	e2e_expect(&r, 0, "y 3 10\nz 2 20\nx 1 30\nx 1 30\nz 2 20\ny 3 10\n\n");
	run_result_free(&r);
}

/* llquantize with fewer steps than its factor (10, 5 steps): a magnitude is
 * cut at multiples of factor^(m+1) / 5 and its first bucket reaches down to
 * factor^m, so 150 counts at 100, 320 at 200 and 799 at 600. */
E2E_TEST(aggs, llquantize_fewer_steps_than_factor)
{
	struct run_result r;
	e2e_run(&r, DCC_BIN, "run", "-q", "-n", "BEGIN { @ = llquantize(5, 10, 0, 2, 5); "
		"@ = llquantize(150, 10, 0, 2, 5); @ = llquantize(320, 10, 0, 2, 5); "
		"@ = llquantize(799, 10, 0, 2, 5); exit(0); }", NULL);
	const char *bar = "|@@@@@@@@@@                               1        \n";
	const char *nil = "|                                         0        \n";
	char want[2048];
	size_t n = (size_t)snprintf(want, sizeof(want), "\n\n%16s  %s %-9s\n", "value",
				    "------------- Distribution -------------", "count");
	const int rows[] = { 2, 4, 6, 8, 10, 20, 40, 60, 80, 100, 200, 400, 600, 800 };
	for (int i = 0; i < 14; i++) {
		int hit = rows[i] == 4 || rows[i] == 100 || rows[i] == 200 || rows[i] == 600;
		n += (size_t)snprintf(want + n, sizeof(want) - n, "%16d %s", rows[i], hit ? bar : nil);
	}
	snprintf(want + n, sizeof(want) - n, "\n");
	e2e_expect(&r, 0, want);
	run_result_free(&r);
}

/* A keyless histogram whose increments cancel out was still updated: it is
 * shown, all rows zero, as DTrace shows it (not taken for an unused one). */
E2E_TEST(aggs, histogram_increments_cancelling_out_are_shown)
{
	struct run_result r;
	e2e_run(&r, DCC_BIN, "run", "-q", "-n", "BEGIN { @q = quantize(5, 3); @q = quantize(5, -3); "
		"@n = quantize(7); exit(0); }", NULL);
	const char *head = "\n           value  ------------- Distribution ------------- count    \n";
	const char *nil = " |                                         0        \n";
	const char *all = " |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 1        \n";
	char want[2048];
	snprintf(want, sizeof(want), "\n%s%16d%s%16d%s%16d%s\n%s%16d%s%16d%s%16d%s\n", head, -1, nil,
		 0, nil, 1, nil, head, 2, nil, 4, all, 8, nil);
	e2e_expect(&r, 0, want);
	run_result_free(&r);
}

/* Each aggregation is one map and a BPF program may use 64: a clause updating
 * 70 aggregations cannot load, and `dcc run` says why before loading. */
E2E_TEST(aggs, a_clause_past_the_map_limit_is_explained)
{
	char src[4096];
	size_t n = (size_t)snprintf(src, sizeof(src), "BEGIN {");
	for (int i = 0; i < 70; i++)
		n += (size_t)snprintf(src + n, sizeof(src) - n, " @a%d = count();", i);
	snprintf(src + n, sizeof(src) - n, " exit(0); }");
	struct run_result r;
	e2e_run(&r, DCC_BIN, "run", "-q", "-n", src, NULL);
	cr_assert_eq(r.status, 1, "status %d\n%s", r.status, r.err);
	cr_assert(strstr(r.err, "<description>:1:1: error: this clause's program uses 71 maps, more "
			 "than the 64 the kernel lets one BPF program use: each aggregation is a "
			 "map of its own\n"), "%s", r.err);
	run_result_free(&r);
}

/* char and short keys keep their size, as DTrace keeps it: shown unsigned in
 * 3 and 5 columns ((char)-2 is 254, (short)-3 is 65533) and sorted so */
E2E_TEST(aggs, char_and_short_keys_keep_their_size)
{
	struct run_result r;
	e2e_run(&r, DCC_BIN, "run", "-q", "-x", "aggsortkey", "-n",
		"BEGIN { @a[(char)-2, (short)-3] = count(); @b[(char)1] = sum(5); "
		"@b[(char)-1] = sum(6); @b[(unsigned char)200] = sum(7); exit(0); }", NULL);
	e2e_expect(&r, 0, "\n 254 65533                1\n"
			  "   1                5\n 200                7\n 255                6\n");
	run_result_free(&r);
}

/* quantize's bucket of v as DTrace prints it: 0, the power of two at or
 * below |v| with v's sign, and -2^62 for -2^63 (the lowest bucket ends at
 * it) */
static long long quantize_row(long long v)
{
	if (v == 0)
		return 0;
	unsigned long long a = v < 0 ? -(unsigned long long)v : (unsigned long long)v;
	if (a >> 63)
		return -(1ll << 62);
	int k = 63 - __builtin_clzll(a);
	return v < 0 ? -(1ll << k) : 1ll << k;
}

/* Every width of a value on both sides of 0 through the program's bucket
 * computation (a hash and a table, bench/RESULTS.md): call i (0..255) of
 * the trigger quantizes 2^k, 2^k - 1, -2^k and 1 - 2^k by i & 3, k = i >> 2
 * (2^63 being -2^63), each under its own key; each histogram must have one
 * count, in v's row. */
E2E_TEST(aggs, quantize_puts_every_width_in_its_bucket)
{
	const char *obj = e2e_build("qwidths",
		"#pragma D option quiet\n"
		"#pragma D option aggsortkey\n"
		"#pragma D option encoding=ascii\n"
		"self int64_t i;\n"
		"syscall::getppid:entry /pid == $target/ {\n"
		"	this->p = (int64_t)1 << (self->i >> 2);\n"
		"	this->m = self->i & 3;\n"
		"	@q[self->i] = quantize(this->m == 0 ? this->p : this->m == 1 ? this->p - 1 :\n"
		"			       this->m == 2 ? -this->p : 1 - this->p);\n"
		"	self->i++;\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s 256", e2e_trigger("getppid_n")), obj, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	long long key = -1, row = 0;
	int keys = 0, rows = 0;
	char l[256];
	for (const char *at = r.out; *at;) {
		size_t len = strcspn(at, "\n");
		snprintf(l, sizeof(l), "%.*s", (int)len, at);
		at += len + (at[len] == '\n');
		long long a, n;
		if (sscanf(l, " %lld |@%*[@] %lld", &a, &n) == 2) {
			cr_assert_eq(n, 1, "key %lld: a count of %lld", key, n);
			row = a;
			rows++;
			continue;
		}
		if (strchr(l, '|') || strstr(l, "value") || sscanf(l, " %lld", &a) != 1)
			continue;
		if (key >= 0) {
			/* unsigned: 2^63 and its negation wrap as in D */
			unsigned long long p = 1ull << (key >> 2), m = key & 3;
			long long v = (long long)(m == 0 ? p : m == 1 ? p - 1 : m == 2 ? -p : 1 - p);
			cr_assert_eq(row, quantize_row(v), "%lld (key %lld) counted at %lld, not %lld",
				     v, key, row, quantize_row(v));
		}
		cr_assert_eq(a, key + 1, "key %lld after %lld", a, key);
		key = a;
		keys++;
	}
	cr_assert_eq(keys, 256, "%d keys\n%s", keys, r.out);
	cr_assert_eq(rows, 256, "%d rows with a count", rows);
	cr_assert_eq(row, quantize_row(INT64_MIN + 1), "the last key counted at %lld", row);
	run_result_free(&r);
}
