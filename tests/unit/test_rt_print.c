/*
 * print(): the type table and records built by hand, the text the runtime
 * prints for each kind of type (DTrace for Linux's form: "(type)value",
 * members one a line, indented from column 44), zero members left out, a
 * value cut short by its record, and corrupt type tables refused.
 */
#include <criterion/criterion.h>
#include "unit/rt_build.h"

/* Expected text: each line starts with its depth as a digit (its indent is
 * 44 + depth spaces), or with '|' for a line printed where the record starts. */
static char *lines(const char *spec)
{
	char *out;
	size_t len;
	FILE *f = open_memstream(&out, &len);

	while (*spec) {
		const char *nl = strchr(spec, '\n');
		size_t n = nl ? (size_t)(nl - spec) : strlen(spec);

		if (*spec != '|')
			fprintf(f, "%*s", 44 + (*spec - '0'), "");
		fprintf(f, "%.*s\n", (int)n - 1, spec + 1);
		spec += n + (nl ? 1 : 0);
	}
	fclose(f);
	return out;
}

enum { T_INT, T_CHAR, T_CHAR5, T_UCHAR, T_U64, T_UNION, T_VOIDP, T_ANON, T_ENUM, T_UINT,
       T_SHORT, T_DOUBLE, T_TEST };

/* struct test_struct { int a; char b[5]; union { unsigned char c; uint64_t d; } u;
 * struct { void *e; uint64_t f; } s; int g; enum eh h; unsigned int bf1 : 3, bf2 : 5;
 * short neg; double x; }: 64 bytes */
static void test_types(struct mb *b)
{
	mb_type(b, DCC_TYPE_INT, DCC_TYPE_F_SIGNED, 4, "int", 0, 0);
	mb_type(b, DCC_TYPE_INT, DCC_TYPE_F_SIGNED | DCC_TYPE_F_CHAR, 1, "char", 0, 0);
	mb_type(b, DCC_TYPE_ARRAY, 0, 5, "char [5]", T_CHAR, 5);
	mb_type(b, DCC_TYPE_INT, 0, 1, "unsigned char", 0, 0);
	mb_type(b, DCC_TYPE_INT, 0, 8, "uint64_t", 0, 0);
	mb_type(b, DCC_TYPE_UNION, 0, 8, "union", 0, 2);
	mb_member(b, "c", T_UCHAR, 0, 0, 0);
	mb_member(b, "d", T_U64, 0, 0, 0);
	mb_type(b, DCC_TYPE_PTR, 0, 8, "void *", 0, 0);
	mb_type(b, DCC_TYPE_STRUCT, 0, 16, "struct", 0, 2);
	mb_member(b, "e", T_VOIDP, 0, 0, 0);
	mb_member(b, "f", T_U64, 64, 0, 0);
	mb_type(b, DCC_TYPE_ENUM, DCC_TYPE_F_SIGNED, 4, "enum eh", 0, 3);
	mb_member(b, "FIRSTVAL", 0, 0, 0, 0);
	mb_member(b, "SECONDVAL", 0, 0, 0, 1);
	mb_member(b, "THIRDVAL", 0, 0, 0, 3);
	mb_type(b, DCC_TYPE_INT, 0, 4, "unsigned int", 0, 0);
	mb_type(b, DCC_TYPE_INT, DCC_TYPE_F_SIGNED, 2, "short", 0, 0);
	mb_type(b, DCC_TYPE_FLOAT, 0, 8, "double", 0, 0);
	mb_type(b, DCC_TYPE_STRUCT, 0, 64, "struct test_struct", 0, 10);
	mb_member(b, "a", T_INT, 0, 0, 0);
	mb_member(b, "b", T_CHAR5, 32, 0, 0);
	mb_member(b, "u", T_UNION, 128, 0, 0);
	mb_member(b, "s", T_ANON, 192, 0, 0);
	mb_member(b, "g", T_INT, 320, 0, 0);
	mb_member(b, "h", T_ENUM, 352, 0, 0);
	mb_member(b, "bf1", T_UINT, 384, 3, 0);
	mb_member(b, "bf2", T_UINT, 387, 5, 0);
	mb_member(b, "neg", T_SHORT, 400, 0, 0);
	mb_member(b, "x", T_DOUBLE, 448, 0, 0);
}

struct test_struct {
	int a;
	char b[5];
	union {
		unsigned char c;
		uint64_t d;
	} u;
	struct {
		void *e;
		uint64_t f;
	} s;
	int g;
	int h;
	unsigned int bf1 : 3, bf2 : 5;
	short neg;
	double x;
};

/* One clause printing a value of type `type` recorded as `kind` of `size`
 * bytes, holding `data`; the runtime's output (or NULL if it refused the
 * metadata, with *err set). */
static char *printed_x(void (*types)(struct mb *), uint32_t type, uint32_t kind,
		       uint32_t size, const void *data, bool quiet, const char *const *x, int nx)
{
	struct rtt t;
	struct rec r;
	struct mb b;
	uint32_t off;
	char *out;

	mb_init(&b);
	mb_probe(&b, DCC_PROBE_BEGIN, "dtrace", "", "", "BEGIN");
	types(&b);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_PRINT, NULL);
	b.actions[b.nactions - 1].fmt = type;
	off = mb_field(&b, kind, size, 1, "");
	cr_assert_eq(rtt_open(&t, &b, quiet, x, nx), 0, "%s", rtt_err(&t));
	rec_init(&r, &b, 1, DCC_PROBE_BEGIN, 0);
	memcpy(r.buf + off, data, kind == DCC_K_INT ? 8 : size);
	cr_assert_eq(dcc_runtime__handle_record(t.rt, r.buf, r.size), 0, "%s", rtt_err(&t));
	cr_assert_str_eq(rtt_err(&t), "");
	out = strdup(rtt_out(&t));
	rtt_close(&t);
	return out;
}

static char *printed(void (*types)(struct mb *), uint32_t type, uint32_t kind, uint32_t size,
		     const void *data, bool quiet)
{
	return printed_x(types, type, kind, size, data, quiet, NULL, 0);
}

static struct test_struct full(void)
{
	struct test_struct s;

	memset(&s, 0, sizeof(s));
	s.a = 1;
	memcpy(s.b, "test", 5);
	s.u.d = 123456789;
	s.s.e = (void *)0xffff9b7aca7e0000;
	s.s.f = 987654321;
	s.g = -7;
	s.h = 1;
	s.bf1 = 5;
	s.bf2 = 9;
	s.neg = -2;
	s.x = 1.5;
	return s;
}

Test(rt_print, struct_of_every_member_kind)
{
	struct test_struct s = full();
	char *out = printed(test_types, T_TEST, DCC_K_BYTES, sizeof(s), &s, true);
	char *want = lines("|(struct test_struct) {\n"
			   "1.a = (int)1,\n"
			   "1.b = (char [5]) [\n"
			   "2(char)'t',\n"
			   "2(char)'e',\n"
			   "2(char)'s',\n"
			   "2(char)'t',\n"
			   "1],\n"
			   "1.u = (union) {\n"
			   "2.c = (unsigned char)21,\n"
			   "2.d = (uint64_t)123456789,\n"
			   "1},\n"
			   "1.s = (struct) {\n"
			   "2.e = (void *)0xffff9b7aca7e0000,\n"
			   "2.f = (uint64_t)987654321,\n"
			   "1},\n"
			   "1.g = (int)-7,\n"
			   "1.h = (enum eh)SECONDVAL,\n"
			   "1.bf1 = (unsigned int)0x5,\n"
			   "1.bf2 = (unsigned int)0x9,\n"
			   "1.neg = (short)-2,\n"
			   "1.x = (double)1.500000,\n"
			   "0}\n");

	cr_assert_str_eq(out, want);
	free(out);
	free(want);
}

Test(rt_print, zero_members_and_arrays_are_left_out_but_enums_stay)
{
	struct test_struct s;
	char *out, *want;

	memset(&s, 0, sizeof(s));
	s.g = 1;
	out = printed(test_types, T_TEST, DCC_K_BYTES, sizeof(s), &s, true);
	want = lines("|(struct test_struct) {\n"
		     "1.g = (int)1,\n"
		     "1.h = (enum eh)FIRSTVAL,\n"
		     "0}\n");
	cr_assert_str_eq(out, want);
	free(out);
	free(want);
}

/* A char array is text: shown when any of its bytes is set, its elements
 * ending at the first NUL, so one that starts with a NUL shows empty. */
Test(rt_print, char_arrays_end_at_their_first_nul)
{
	struct test_struct s;
	char *out, *want;

	memset(&s, 0, sizeof(s));
	memcpy(s.b, "\0ab", 3);
	out = printed(test_types, T_TEST, DCC_K_BYTES, sizeof(s), &s, true);
	want = lines("|(struct test_struct) {\n"
		     "1.b = (char [5]) [\n"
		     "1],\n"
		     "1.h = (enum eh)FIRSTVAL,\n"
		     "0}\n");
	cr_assert_str_eq(out, want);
	free(out);
	free(want);
	memcpy(s.b, "xy\0z", 4);
	out = printed(test_types, T_TEST, DCC_K_BYTES, sizeof(s), &s, true);
	want = lines("|(struct test_struct) {\n"
		     "1.b = (char [5]) [\n"
		     "2(char)'x',\n"
		     "2(char)'y',\n"
		     "1],\n"
		     "1.h = (enum eh)FIRSTVAL,\n"
		     "0}\n");
	cr_assert_str_eq(out, want);
	free(out);
	free(want);
}

Test(rt_print, a_value_cut_short_shows_dots_where_it_ends)
{
	struct test_struct s = full();
	char *out = printed(test_types, T_TEST, DCC_K_BYTES, 20, &s, true);
	char *want = lines("|(struct test_struct) {\n"
			   "1.a = (int)1,\n"
			   "1.b = (char [5]) [\n"
			   "2(char)'t',\n"
			   "2(char)'e',\n"
			   "2(char)'s',\n"
			   "2(char)'t',\n"
			   "1],\n"
			   "1...\n"
			   "0}\n");

	cr_assert_str_eq(out, want);
	free(out);
	free(want);
}

/* printsize=N: the walk stops at the first member that starts at or past N
 * bytes; its "..." comes before the closing brace of a struct or union
 * shown just before it */
Test(rt_print, printsize_stops_at_the_first_member_starting_past_it)
{
	struct test_struct s = full();
	static const char *const x8[] = { "printsize=8" }, *const x24[] = { "printsize=24" };
	char *out = printed_x(test_types, T_TEST, DCC_K_BYTES, sizeof(s), &s, true, x8, 1);
	char *want = lines("|(struct test_struct) {\n"
			   "1.a = (int)1,\n"
			   "1.b = (char [5]) [\n"
			   "2(char)'t',\n"
			   "2(char)'e',\n"
			   "2(char)'s',\n"
			   "2(char)'t',\n"
			   "1],\n"
			   "1...\n"
			   "0}\n");

	cr_assert_str_eq(out, want);
	free(out);
	free(want);
	out = printed_x(test_types, T_TEST, DCC_K_BYTES, sizeof(s), &s, true, x24, 1);
	want = lines("|(struct test_struct) {\n"
		     "1.a = (int)1,\n"
		     "1.b = (char [5]) [\n"
		     "2(char)'t',\n"
		     "2(char)'e',\n"
		     "2(char)'s',\n"
		     "2(char)'t',\n"
		     "1],\n"
		     "1.u = (union) {\n"
		     "2.c = (unsigned char)21,\n"
		     "2.d = (uint64_t)123456789,\n"
		     "1...\n"
		     "1},\n"
		     "0}\n");
	cr_assert_str_eq(out, want);
	free(out);
	free(want);
}

/* a char array is shown as a string: up to its first NUL, even when bytes follow */
Test(rt_print, char_array_ends_at_its_first_nul)
{
	struct test_struct s;

	memset(&s, 0, sizeof(s));
	memcpy(s.b, "ok\0no", 5);
	s.g = 2;
	char *out = printed(test_types, T_TEST, DCC_K_BYTES, sizeof(s), &s, true);
	char *want = lines("|(struct test_struct) {\n"
			   "1.b = (char [5]) [\n"
			   "2(char)'o',\n"
			   "2(char)'k',\n"
			   "1],\n"
			   "1.g = (int)2,\n"
			   "1.h = (enum eh)FIRSTVAL,\n"
			   "0}\n");

	cr_assert_str_eq(out, want);
	free(out);
	free(want);
}

Test(rt_print, non_quiet_follows_the_probe_line)
{
	struct test_struct s = full();
	char *out = printed(test_types, T_ANON, DCC_K_BYTES, 16, &s.s, false);
	char *want = lines("|CPU     ID                    FUNCTION:NAME\n"
			   "|  0      1                           :BEGIN (struct) {\n"
			   "1.e = (void *)0xffff9b7aca7e0000,\n"
			   "1.f = (uint64_t)987654321,\n"
			   "0}\n"
			   "|\n");

	cr_assert_str_eq(out, want);
	free(out);
	free(want);
}

static void scalar_is(uint32_t type, uint32_t kind, uint32_t size, int64_t v, const char *want)
{
	char *out = printed(test_types, type, kind, size, &v, true);

	cr_assert_str_eq(out, want);
	free(out);
}

Test(rt_print, scalars)
{
	scalar_is(T_INT, DCC_K_INT, 4, -5, "(int)-5\n");
	scalar_is(T_U64, DCC_K_INT, 8, -1, "(uint64_t)18446744073709551615\n");
	scalar_is(T_CHAR, DCC_K_INT, 1, 'A', "(char)'A'\n");
	scalar_is(T_CHAR, DCC_K_INT, 1, 7, "(char)7\n");
	scalar_is(T_UCHAR, DCC_K_INT, 1, 'A', "(unsigned char)65\n");
	scalar_is(T_ENUM, DCC_K_INT, 4, 3, "(enum eh)THIRDVAL\n");
	scalar_is(T_ENUM, DCC_K_INT, 4, 7, "(enum eh)7\n");
	scalar_is(T_VOIDP, DCC_K_INT, 8, 0x1000, "(void *)0x1000\n");
}

static void string_type(struct mb *b)
{
	mb_type(b, DCC_TYPE_STRING, 0, 0, "string", 0, 0);
	mb_type(b, DCC_TYPE_FLOAT, 0, 8, "double", 0, 0);
}

Test(rt_print, strings_and_floats)
{
	char s[16] = "hi there";
	double d = -0.25;
	char *out = printed(string_type, 0, DCC_K_STRING, 16, s, true);

	cr_assert_str_eq(out, "(string)\"hi there\"\n");
	free(out);
	out = printed(string_type, 1, DCC_K_FLOAT, 8, &d, true);
	cr_assert_str_eq(out, "(double)-0.250000\n");
	free(out);
}

/* struct pair { short v[2][2]; struct { int x; } in[2]; }: arrays of arrays and of structs */
static void nested_types(struct mb *b)
{
	mb_type(b, DCC_TYPE_INT, DCC_TYPE_F_SIGNED, 2, "short", 0, 0);
	mb_type(b, DCC_TYPE_ARRAY, 0, 4, "short [2]", 0, 2);
	mb_type(b, DCC_TYPE_ARRAY, 0, 8, "short [2][2]", 1, 2);
	mb_type(b, DCC_TYPE_INT, DCC_TYPE_F_SIGNED, 4, "int", 0, 0);
	mb_type(b, DCC_TYPE_STRUCT, 0, 4, "struct", 0, 1);
	mb_member(b, "x", 3, 0, 0, 0);
	mb_type(b, DCC_TYPE_ARRAY, 0, 8, "struct [2]", 4, 2);
	mb_type(b, DCC_TYPE_STRUCT, 0, 16, "struct pair", 0, 2);
	mb_member(b, "v", 2, 0, 0, 0);
	mb_member(b, "in", 5, 64, 0, 0);
}

Test(rt_print, arrays_of_arrays_and_of_structs)
{
	struct {
		short v[2][2];
		int in[2];
	} p = { { { 1, 0 }, { 0, 4 } }, { 0, 9 } };
	char *out = printed(nested_types, 6, DCC_K_BYTES, sizeof(p), &p, true);
	char *want = lines("|(struct pair) {\n"
			   "1.v = (short [2][2]) [\n"
			   "2(short [2]) [\n"
			   "3(short)1,\n"
			   "2],\n"
			   "2(short [2]) [\n"
			   "3(short)4,\n"
			   "2],\n"
			   "1],\n"
			   "1.in = (struct [2]) [\n"
			   "2(struct) {\n"
			   "3.x = (int)9,\n"
			   "2},\n"
			   "1],\n"
			   "0}\n");

	cr_assert_str_eq(out, want);
	free(out);
	free(want);
}

/* A metadata blob with one print action over a type table types() builds,
 * after break_it() damaged it: dcc_runtime__new must refuse it. */
static void refused(void (*types)(struct mb *), void (*break_it)(struct mb *),
		    const char *why)
{
	struct rtt t;
	struct mb b;

	mb_init(&b);
	mb_probe(&b, DCC_PROBE_BEGIN, "dtrace", "", "", "BEGIN");
	types(&b);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_PRINT, NULL);
	b.actions[b.nactions - 1].fmt = T_TEST;
	mb_field(&b, DCC_K_BYTES, 64, 0, "");
	break_it(&b);
	cr_assert_eq(rtt_open(&t, &b, true, NULL, 0), -EBADMSG);
	cr_assert(strstr(rtt_err(&t), why), "%s", rtt_err(&t));
	rtt_close(&t);
}

static void member_cycle(struct mb *b)
{
	b->members[b->types[T_TEST].first + 2].type = T_TEST; /* u is the struct itself */
}

static void type_out_of_range(struct mb *b)
{
	b->actions[0].fmt = 999;
}

static void members_out_of_range(struct mb *b)
{
	b->types[T_TEST].n = 1000;
}

static void array_size_wrong(struct mb *b)
{
	b->types[T_CHAR5].n = 6;
}

static void bad_kind(struct mb *b)
{
	b->types[T_UINT].kind = 77;
}

static void bytes_for_an_int(struct mb *b)
{
	b->actions[0].fmt = T_INT;
}

static void bad_name(struct mb *b)
{
	b->members[0].name = 100000;
}

static void elem_after(struct mb *b)
{
	b->types[T_CHAR5].ref = T_TEST;
}

Test(rt_print, corrupt_type_tables_are_refused)
{
	refused(test_types, member_cycle, "type 12 member 2: type 12 out of order");
	refused(test_types, type_out_of_range, "print: type 999 out of range");
	refused(test_types, members_out_of_range, "type 12: members out of range");
	refused(test_types, array_size_wrong, "6 elements of 1 bytes are not 5");
	refused(test_types, bad_kind, "type 9: unknown kind 77");
	refused(test_types, bytes_for_an_int, "print: a bytes argument");
	refused(test_types, bad_name, "string offset out of range");
	refused(test_types, elem_after, "element type 12 out of order");
}

Test(rt_print, json_output_holds_the_text)
{
	static const char *const x[] = { "oformat=json" };
	struct rtt t;
	struct rec r;
	struct mb b;
	uint32_t off;

	mb_init(&b);
	mb_probe(&b, DCC_PROBE_BEGIN, "dtrace", "", "", "BEGIN");
	test_types(&b);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_PRINT, NULL);
	b.actions[b.nactions - 1].fmt = T_ENUM;
	off = mb_int(&b, 4, 1);
	cr_assert_eq(rtt_open(&t, &b, true, x, 1), 0, "%s", rtt_err(&t));
	rec_init(&r, &b, 1, DCC_PROBE_BEGIN, 0);
	rec_int(&r, off, 3);
	cr_assert_eq(dcc_runtime__handle_record(t.rt, r.buf, r.size), 0, "%s", rtt_err(&t));
	cr_assert(strstr(rtt_out(&t), "\"output\":[{\"print\":\"(enum eh)THIRDVAL\\n\"}]"), "%s",
		  rtt_out(&t));
	rtt_close(&t);
}
