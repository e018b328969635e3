/* Lexer: exact token streams, literal values, probe-description mode, errors. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "ast.h"
#include "diag.h"
#include "lex.h"
#include "parse.h"

static struct arena *ar;
static char *dbuf;
static size_t dlen;
static FILE *dout;
static struct diag *dg;

static void setup(void)
{
	ar = arena_create();
	dout = open_memstream(&dbuf, &dlen);
	dg = diag_new(dout);
}

static void teardown(void)
{
	diag_free(dg);
	fclose(dout);
	free(dbuf);
	arena_destroy(ar);
}

TestSuite(lex, .init = setup, .fini = teardown);

static const char *diags(void)
{
	fflush(dout);
	return dbuf;
}

/* Every token of src in one mode, one "LINE:COL KIND 'text'" line each. */
static char *tokens(const char *src, enum lex_mode mode)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct lexer lx;
	uint32_t file = diag_add_source(dg, "t.d", src, strlen(src));
	lex_init(&lx, ar, dg, file, src, strlen(src));
	for (;;) {
		struct token t = lex_next(&lx, mode);
		lex_print_token(f, &t);
		if (t.kind == TOK_EOF || (t.kind == TOK_PROBEDESC && t.len == 0))
			break;
	}
	fclose(f);
	char *s = arena_strdup(ar, buf);
	free(buf);
	return s;
}

static struct token one(const char *src)
{
	struct lexer lx;
	uint32_t file = diag_add_source(dg, "t.d", src, strlen(src));
	lex_init(&lx, ar, dg, file, src, strlen(src));
	return lex_next(&lx, LEX_NORMAL);
}

Test(lex, operators_longest_match)
{
	cr_assert_str_eq(tokens("a+=b<<=2^^c->d...++--<=>=>>", LEX_NORMAL),
			 "1:1 IDENT 'a'\n1:2 ASSIGN '+='\n1:4 IDENT 'b'\n1:5 ASSIGN '<<='\n"
			 "1:8 INT '2' 2\n1:9 PUNCT '^^'\n1:11 IDENT 'c'\n1:12 PUNCT '->'\n"
			 "1:14 IDENT 'd'\n1:15 PUNCT '...'\n1:18 PUNCT '++'\n1:20 PUNCT '--'\n"
			 "1:22 PUNCT '<='\n1:24 PUNCT '>='\n1:26 PUNCT '>>'\n1:28 EOF ''\n");
}

Test(lex, every_single_char_operator)
{
	cr_assert_str_eq(tokens("+-*/%&|^~!<>?:;,.()[]{}=`", LEX_NORMAL),
			 "1:1 PUNCT '+'\n1:2 PUNCT '-'\n1:3 PUNCT '*'\n1:4 PUNCT '/'\n"
			 "1:5 PUNCT '%'\n1:6 PUNCT '&'\n1:7 PUNCT '|'\n1:8 PUNCT '^'\n"
			 "1:9 PUNCT '~'\n1:10 PUNCT '!'\n1:11 PUNCT '<'\n1:12 PUNCT '>'\n"
			 "1:13 PUNCT '?'\n1:14 PUNCT ':'\n1:15 PUNCT ';'\n1:16 PUNCT ','\n"
			 "1:17 PUNCT '.'\n1:18 PUNCT '('\n1:19 PUNCT ')'\n1:20 PUNCT '['\n"
			 "1:21 PUNCT ']'\n1:22 PUNCT '{'\n1:23 PUNCT '}'\n1:24 ASSIGN '='\n"
			 "1:25 PUNCT '`'\n1:26 EOF ''\n");
}

Test(lex, compound_assignment_carries_the_binary_operator)
{
	const char *ops[] = { "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "=" };
	const int want[] = { '+', '-', '*', '/', '%', '&', '|', '^', OP_SHL, OP_SHR, '=' };
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		struct token t = one(ops[i]);
		cr_assert_eq(t.kind, TOK_ASSIGN, "%s", ops[i]);
		cr_assert_eq(t.op, want[i], "%s", ops[i]);
	}
}

Test(lex, keywords_reserved_and_identifiers)
{
	cr_assert_str_eq(tokens("sizeof self this string xlate if for counter probe _x1", LEX_NORMAL),
			 "1:1 KEYWORD 'sizeof'\n1:8 KEYWORD 'self'\n1:13 KEYWORD 'this'\n"
			 "1:18 KEYWORD 'string'\n1:25 KEYWORD 'xlate'\n1:31 RESERVED 'if'\n"
			 "1:34 RESERVED 'for'\n1:38 RESERVED 'counter'\n1:46 IDENT 'probe'\n"
			 "1:52 IDENT '_x1'\n1:55 EOF ''\n");
	cr_assert_eq(one("unsigned").op, K_UNSIGNED);
	cr_assert_eq(one("static").kind, TOK_RESERVED);
	cr_assert_eq(one("static").op, K_STATIC);
}

Test(lex, integers_values_and_suffixes)
{
	struct {
		const char *src;
		uint64_t v;
		unsigned flags;
	} cases[] = {
		{ "0", 0, 0 }, { "42", 42, 0 }, { "017", 15, 0 }, { "0x1f", 31, 0 },
		{ "0XFF", 255, 0 }, { "42u", 42, INTF_UNSIGNED }, { "42L", 42, INTF_LONG },
		{ "42UL", 42, INTF_UNSIGNED | INTF_LONG }, { "42lu", 42, INTF_UNSIGNED | INTF_LONG },
		{ "42ll", 42, INTF_LONGLONG }, { "42ULL", 42, INTF_UNSIGNED | INTF_LONGLONG },
		{ "42llu", 42, INTF_UNSIGNED | INTF_LONGLONG },
		{ "18446744073709551615", UINT64_MAX, 0 },
		{ "0xffffffffffffffff", UINT64_MAX, 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct token t = one(cases[i].src);
		cr_assert_eq(t.kind, TOK_INT, "%s", cases[i].src);
		cr_assert_eq(t.ival, cases[i].v, "%s: %llu", cases[i].src,
			     (unsigned long long)t.ival);
		cr_assert_eq(t.iflags, cases[i].flags, "%s", cases[i].src);
		cr_assert_eq(t.len, strlen(cases[i].src));
	}
	cr_assert_eq(diag_errors(dg), 0);
}

Test(lex, integer_errors)
{
	one("18446744073709551616");
	one("0x");
	one("08");
	one("5sec");
	one("1.5");
	cr_assert_eq(diag_errors(dg), 5);
	cr_assert_str_eq(diags(),
			 "t.d:1:1: error: integer literal is too large to be represented in any "
			 "integer type\n18446744073709551616\n^~~~~~~~~~~~~~~~~~~~\n"
			 "t.d:1:2: error: invalid suffix 'x' on integer constant\n0x\n ^\n"
			 "t.d:1:2: error: invalid digit '8' in octal constant\n08\n ^\n"
			 "t.d:1:2: error: invalid suffix 'sec' on integer constant\n5sec\n ^~~\n"
			 "t.d:1:1: error: floating-point constants are not supported\n1.5\n^~~\n");
}

Test(lex, character_literals_are_int)
{
	struct token t = one("'a'");
	cr_assert_eq(t.kind, TOK_CHAR);
	cr_assert_eq(t.ival, 97);
	cr_assert_eq(t.iflags, INTF_CHAR);
	cr_assert_eq(one("'\\n'").ival, 10);
	cr_assert_eq(one("'\\0'").ival, 0);
	cr_assert_eq(one("'\\x41'").ival, 0x41);
	/* the bytes are unsigned, as in DTrace: '\377' is 255, not -1 */
	cr_assert_eq(one("'\\377'").ival, 255);
	cr_assert_eq(diag_errors(dg), 0);
}

Test(lex, multi_character_constants_pack_big_endian)
{
	cr_assert_eq(one("'ab'").ival, 0x6162);
	cr_assert_eq(one("'\\t\\x41z'").ival, 0x09417a);
	cr_assert_eq(one("'\\0101'").ival, 0x0831); /* three octal digits at most */
	cr_assert_eq(one("'abcdefgh'").ival, 0x6162636465666768ull);
	/* DTrace keeps the backslash of escapes it does not decode, \' and \? too */
	cr_assert_eq(one("'\\''").ival, 0x5c27);
	cr_assert_eq(one("'\\?'").ival, 0x5c3f);
	cr_assert_eq(one("'\\q'").ival, 0x5c71);
	cr_assert_eq(one("'\\\\'").ival, '\\');
	cr_assert_eq(diag_errors(dg), 0);
}

Test(lex, character_literal_errors)
{
	one("''");
	one("'abcdefghi'");
	one("'a");
	cr_assert_str_eq(diags(), "t.d:1:1: error: empty character constant\n''\n^~\n"
				  "t.d:1:1: error: character constant is too long\n"
				  "'abcdefghi'\n^~~~~~~~~~~\n"
				  "t.d:1:1: error: unterminated character constant\n'a\n^\n");
}

Test(lex, string_escapes)
{
	struct token t = one("\"\\a\\b\\f\\n\\r\\t\\v\\\\\\\"\\101\\x42\\0z\"");
	cr_assert_eq(t.kind, TOK_STRING);
	const char want[] = "\a\b\f\n\r\t\v\\\"AB\0z";
	cr_assert_eq(t.slen, sizeof(want) - 1);
	cr_assert(!memcmp(t.str, want, sizeof(want) - 1));
	cr_assert_eq(t.str[t.slen], 0);
	cr_assert_eq(diag_errors(dg), 0);
}

Test(lex, other_escapes_keep_their_backslash_as_in_dtrace)
{
	/* \q, \? and \' are not decoded by DTrace's lexer: both bytes stay */
	struct token t = one("\"a\\qb\\?\\'\"");
	cr_assert_eq(t.kind, TOK_STRING);
	cr_assert_str_eq(t.str, "a\\qb\\?\\'");
	cr_assert_eq(t.slen, 8);
	cr_assert_eq(diag_errors(dg), 0);
}

Test(lex, unterminated_string)
{
	struct token t = one("\"abc\nx");
	cr_assert_eq(t.kind, TOK_STRING);
	cr_assert_str_eq(t.str, "abc");
	cr_assert_str_eq(diags(), "t.d:1:1: error: unterminated string literal\n\"abc\n^\n");
}

Test(lex, aggregations_and_macros)
{
	cr_assert_str_eq(tokens("@ @foo @a[1] $1 $$2 $target $egid $12", LEX_NORMAL),
			 "1:1 AGG '@'\n1:3 AGG '@foo'\n1:8 AGG '@a'\n1:10 PUNCT '['\n"
			 "1:11 INT '1' 1\n1:12 PUNCT ']'\n1:14 MACRO '$1'\n1:17 MACRO '$$2'\n"
			 "1:21 MACRO '$target'\n1:29 MACRO '$egid'\n1:35 MACRO '$12'\n1:38 EOF ''\n");
	struct token t = one("$$3");
	cr_assert_str_eq(t.str, "3");
	cr_assert_eq(t.ival, 1);
	t = one("@bar");
	cr_assert_str_eq(t.str, "bar");
	t = one("@");
	cr_assert_str_eq(t.str, "");
	cr_assert_eq(diag_errors(dg), 0);
}

Test(lex, unknown_macro_variable)
{
	one("$foo");
	one("$$target");
	cr_assert_str_eq(diags(), "t.d:1:1: error: unknown macro variable '$foo'\n$foo\n^~~~\n"
				  "t.d:1:1: error: unknown macro variable '$$target'\n"
				  "$$target\n^~~~~~~~\n");
}

Test(lex, probe_descriptions_are_one_token)
{
	cr_assert_str_eq(tokens("syscall::open*:entry,profile:::tick-1sec /", LEX_PROBE),
			 "1:1 PROBEDESC 'syscall::open*:entry'\n1:21 PROBEDESC ''\n");
	cr_assert_str_eq(tokens("pid$target:libc.so.6:malloc:entry{", LEX_PROBE),
			 "1:1 PROBEDESC 'pid$target:libc.so.6:malloc:entry'\n1:34 PROBEDESC ''\n");
	cr_assert_str_eq(tokens("fbt::vfs_[!rw]?\\*:entry\n BEGIN", LEX_PROBE),
			 "1:1 PROBEDESC 'fbt::vfs_[!rw]?\\*:entry'\n2:2 PROBEDESC 'BEGIN'\n"
			 "2:7 EOF ''\n");
	cr_assert_eq(diag_errors(dg), 0);
}

Test(lex, probe_description_bad_character)
{
	tokens("syscall::op(en:entry", LEX_PROBE);
	cr_assert_str_eq(diags(), "t.d:1:12: error: invalid character '(' in probe description\n"
				  "syscall::op(en:entry\n           ^\n");
}

Test(lex, comments_and_shebang)
{
	cr_assert_str_eq(tokens("#!/usr/sbin/dtrace -s\na /* b /* c */ d // e\n f", LEX_NORMAL),
			 "2:1 IDENT 'a'\n2:16 IDENT 'd'\n3:2 IDENT 'f'\n3:3 EOF ''\n");
	tokens("x /* never closed\n y", LEX_NORMAL);
	cr_assert_str_eq(diags(), "t.d:1:3: error: unterminated /* comment\n"
				  "x /* never closed\n  ^~\n");
}

Test(lex, pragmas_and_directives)
{
	struct token t = one("  #pragma D option  quiet  \n");
	cr_assert_eq(t.kind, TOK_PRAGMA);
	cr_assert_str_eq(t.str, "option  quiet");
	cr_assert_eq(t.loc.col, 3);
	cr_assert_str_eq(tokens("#pragma ident \"x\"\n#\nx", LEX_NORMAL),
			 "3:1 IDENT 'x'\n3:2 EOF ''\n");
	tokens("#include <a.h>\n#if 1\n#bogus\nx # y", LEX_NORMAL);
	cr_assert_str_eq(diags(),
			 "t.d:1:1: error: preprocessor directive '#include' needs the C "
			 "preprocessor: use -C\n#include <a.h>\n^~~~~~~~\n"
			 "t.d:2:1: error: preprocessor directive '#if' needs the C "
			 "preprocessor: use -C\n#if 1\n^~~\n"
			 "t.d:3:1: error: invalid preprocessing directive '#bogus'\n#bogus\n^~~~~~\n"
			 "t.d:4:3: error: invalid character '#'\nx # y\n  ^\n");
}

Test(lex, line_directive_renumbers)
{
	cr_assert_str_eq(tokens("a\n#line 40\nb\n# 7 \"lib.d\"\nc", LEX_NORMAL),
			 "1:1 IDENT 'a'\n40:1 IDENT 'b'\n7:1 IDENT 'c'\n7:2 EOF ''\n");
}

Test(lex, eof_location_is_past_the_last_character)
{
	struct token t;
	struct lexer lx;
	const char *src = "x\n\ty;\n";
	lex_init(&lx, ar, dg, diag_add_source(dg, "t.d", src, strlen(src)), src, strlen(src));
	lex_next(&lx, LEX_NORMAL);
	lex_next(&lx, LEX_NORMAL);
	lex_next(&lx, LEX_NORMAL);
	t = lex_next(&lx, LEX_NORMAL);
	cr_assert_eq(t.kind, TOK_EOF);
	cr_assert_eq(t.loc.line, 2);
	cr_assert_eq(t.loc.col, 4);
	cr_assert_eq(t.loc.off, 5);
}

Test(lex, next_char_skips_blanks_and_comments)
{
	struct lexer lx;
	const char *src = "/ /* c */ // d\n  {";
	lex_init(&lx, ar, dg, 0, src, strlen(src));
	cr_assert_eq(lex_next_char(&lx, 1), '{');
	cr_assert_eq(lex_next_char(&lx, strlen(src)), 0);
}

Test(lex, dump_tokens_follows_the_parser_modes)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	const char *src = "#pragma D option quiet\nint x;\n"
			  "profile:::tick-1sec, syscall::read:entry /x/ { @[probefunc] = count(); }\n";
	int rc = parse_dump_tokens(f, dg, diag_add_source(dg, "t.d", src, strlen(src)), src,
				   strlen(src));
	fclose(f);
	cr_assert_eq(rc, 0);
	cr_assert_str_eq(buf, "1:1 PRAGMA '#pragma D option quiet'\n"
			      "2:1 KEYWORD 'int'\n2:5 IDENT 'x'\n2:6 PUNCT ';'\n"
			      "3:1 PROBEDESC 'profile:::tick-1sec'\n3:20 PUNCT ','\n"
			      "3:22 PROBEDESC 'syscall::read:entry'\n3:42 PUNCT '/'\n"
			      "3:43 IDENT 'x'\n3:44 PUNCT '/'\n3:46 PUNCT '{'\n3:48 AGG '@'\n"
			      "3:49 PUNCT '['\n3:50 IDENT 'probefunc'\n3:59 PUNCT ']'\n"
			      "3:61 ASSIGN '='\n3:63 IDENT 'count'\n3:68 PUNCT '('\n"
			      "3:69 PUNCT ')'\n3:70 PUNCT ';'\n3:72 PUNCT '}'\n3:73 EOF ''\n");
	free(buf);
}

Test(lex, dump_tokens_reports_lex_errors_only)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	const char *src = "BEGIN { x = \"a\\x\"; y = ; }\n";
	int rc = parse_dump_tokens(f, dg, diag_add_source(dg, "t.d", src, strlen(src)), src,
				   strlen(src));
	fclose(f);
	free(buf);
	cr_assert_eq(rc, -1);
	cr_assert_eq(diag_errors(dg), 1);
	cr_assert_str_eq(diags(), "t.d:1:15: error: \\x used with no following hex digits\n"
				  "BEGIN { x = \"a\\x\"; y = ; }\n              ^~\n");
}
