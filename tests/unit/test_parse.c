/* Parser: tree shapes (precedence, casts, probe descriptions), locations, dumps. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "ast.h"
#include "diag.h"
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

TestSuite(parse, .init = setup, .fini = teardown);

static const char *diags(void)
{
	fflush(dout);
	return dbuf ? dbuf : "";
}

static struct node *parse_opts(const char *src, const struct parse_opts *o)
{
	uint32_t f = diag_add_source(dg, "p.d", src, strlen(src));
	struct node *p = parse_program(ar, dg, f, src, strlen(src), o);
	cr_assert_not_null(p);
	return p;
}

static struct node *parse(const char *src)
{
	return parse_opts(src, NULL);
}

/* A compact S-expression of an expression tree. */
static void sx(FILE *f, const struct node *n);

static void sx_type(FILE *f, const struct node *tn)
{
	const struct node *ts = tn->a;
	switch (ts->ival) {
	case TS_STRUCT: fputs("struct ", f); break;
	case TS_UNION: fputs("union ", f); break;
	case TS_ENUM: fputs("enum ", f); break;
	}
	fputs(ts->name, f);
	if (tn->b && tn->b->ival) {
		fputc(' ', f);
		for (uint64_t i = 0; i < tn->b->ival; i++)
			fputc('*', f);
	}
}

static void sx_list(FILE *f, const struct node *l)
{
	for (; l; l = l->next) {
		fputc(' ', f);
		sx(f, l);
	}
}

static void sx(FILE *f, const struct node *n)
{
	switch (n->kind) {
	case N_INT: fprintf(f, "%lld", (long long)n->ival); break;
	case N_STR: fprintf(f, "\"%s\"", n->str); break;
	case N_IDENT: fputs(n->name, f); break;
	case N_MACRO: fprintf(f, "%s%s", n->ival ? "$$" : "$", n->name); break;
	case N_SELF: fprintf(f, "self->%s", n->name); break;
	case N_THIS: fprintf(f, "this->%s", n->name); break;
	case N_AGG:
		if (!n->list) {
			fprintf(f, "@%s", n->name);
		} else {
			fprintf(f, "(@%s", n->name);
			sx_list(f, n->list);
			fputc(')', f);
		}
		break;
	case N_UNOP:
		fprintf(f, "(%s%s ", n->op == OP_PREINC || n->op == OP_PREDEC ? "pre" :
				      n->op == OP_POSTINC || n->op == OP_POSTDEC ? "post" : "",
			ast_op_name(n->op));
		sx(f, n->a);
		fputc(')', f);
		break;
	case N_BINOP:
	case N_ASSIGN:
	case N_COMMA:
		fprintf(f, "(%s%s ", n->kind == N_COMMA ? "," : ast_op_name(n->op),
			n->kind == N_ASSIGN && n->op != '=' ? "=" : "");
		sx(f, n->a);
		fputc(' ', f);
		sx(f, n->b);
		fputc(')', f);
		break;
	case N_COND:
		fputs("(? ", f);
		sx(f, n->a);
		fputc(' ', f);
		sx(f, n->b);
		fputc(' ', f);
		sx(f, n->c);
		fputc(')', f);
		break;
	case N_CALL:
		fputs("(call ", f);
		if (n->name)
			fputs(n->name, f);
		else
			sx(f, n->a);
		sx_list(f, n->list);
		fputc(')', f);
		break;
	case N_INDEX:
		fputs("([] ", f);
		sx(f, n->a);
		sx_list(f, n->list);
		fputc(')', f);
		break;
	case N_MEMBER:
		fprintf(f, "(%s ", n->op == '.' ? "." : "->");
		sx(f, n->a);
		fprintf(f, " %s)", n->name);
		break;
	case N_CAST:
		fputs("(cast ", f);
		sx_type(f, n->a);
		fputc(' ', f);
		sx(f, n->b);
		fputc(')', f);
		break;
	case N_SIZEOF:
		fputs("(sizeof ", f);
		if (n->ival)
			sx_type(f, n->a);
		else
			sx(f, n->a);
		fputc(')', f);
		break;
	case N_STRINGOF:
		fputs("(stringof ", f);
		sx(f, n->a);
		fputc(')', f);
		break;
	case N_OFFSETOF:
		fputs("(offsetof ", f);
		sx_type(f, n->a);
		fprintf(f, " %s)", n->name);
		break;
	case N_XLATE:
		fputs("(xlate ", f);
		sx_type(f, n->a);
		fputc(' ', f);
		sx(f, n->b);
		fputc(')', f);
		break;
	default:
		fprintf(f, "<%s>", ast_kind_name(n->kind));
	}
}

static char *sexpr(const struct node *n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	sx(f, n);
	fclose(f);
	char *s = arena_strdup(ar, buf);
	free(buf);
	return s;
}

static const struct node *first_clause(const struct node *prog)
{
	for (const struct node *n = prog->list; n; n = n->next)
		if (n->kind == N_CLAUSE)
			return n;
	cr_assert_fail("no clause");
	return NULL;
}

/* The first statement of "BEGIN { e; }" as an S-expression. */
static char *stmt(const char *e)
{
	char *src = arena_printf(ar, "BEGIN { %s; }", e);
	struct node *p = parse(src);
	cr_assert_eq(diag_errors(dg), 0, "%s: %s", e, diags());
	const struct node *c = first_clause(p);
	cr_assert_not_null(c->b, "%s", e);
	return sexpr(c->b);
}

static char *dump(const struct node *n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ast_dump(f, n);
	fclose(f);
	char *s = arena_strdup(ar, buf);
	free(buf);
	return s;
}

Test(parse, precedence_and_associativity)
{
	static const char *const cases[][2] = {
		{ "a ^^ b && c", "(^^ a (&& b c))" },
		{ "a || b ^^ c", "(|| a (^^ b c))" },
		{ "a && b ^^ c || d", "(|| (^^ (&& a b) c) d)" },
		{ "a = b ? c : d, e", "(, (= a (? b c d)) e)" },
		{ "a = b = c", "(= a (= b c))" },
		{ "a - b - c", "(- (- a b) c)" },
		{ "a / b % c", "(% (/ a b) c)" },
		{ "a + b * c", "(+ a (* b c))" },
		{ "a << 1 + 2", "(<< a (+ 1 2))" },
		{ "a >> b < c", "(< (>> a b) c)" },
		{ "a & b == c", "(& a (== b c))" },
		{ "a | b ^ c & d", "(| a (^ b (& c d)))" },
		{ "a < b == c >= d", "(== (< a b) (>= c d))" },
		{ "a != b <= c", "(!= a (<= b c))" },
		{ "-a * !b", "(* (- a) (! b))" },
		{ "~a + +b", "(+ (~ a) (+ b))" },
		{ "*p++", "(* (post++ p))" },
		{ "++*p", "(pre++ (* p))" },
		{ "--x, x--", "(, (pre-- x) (post-- x))" },
		{ "&a->b[1]", "(& ([] (-> a b) 1))" },
		{ "a.b.c", "(. (. a b) c)" },
		{ "a ? b : c ? d : e", "(? a b (? c d e))" },
		{ "a ? b, c : d", "(? a (, b c) d)" },
		{ "x += y -= 2", "(+= x (-= y 2))" },
		{ "x <<= 1", "(<<= x 1)" },
		{ "x >>= 1, x %= 2", "(, (>>= x 1) (%= x 2))" },
		{ "x &= 1, x |= 2, x ^= 3", "(, (, (&= x 1) (|= x 2)) (^= x 3))" },
		{ "x *= 1, x /= 2", "(, (*= x 1) (/= x 2))" },
		{ "f(a, b)(c)", "(call (call f a b) c)" },
		{ "f()", "(call f)" },
		{ "a[1][2]", "([] ([] a 1) 2)" },
		{ "a[1, \"x\", b]", "([] a 1 \"x\" b)" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		cr_expect_str_eq(stmt(cases[i][0]), cases[i][1], "%s", cases[i][0]);
}

Test(parse, casts_versus_parentheses)
{
	static const char *const cases[][2] = {
		{ "(int)a + b", "(+ (cast int a) b)" },
		{ "(a) + b", "(+ a b)" },
		{ "(a)(b)", "(call a b)" },
		{ "(a) - 1", "(- a 1)" },
		{ "(size_t)-1", "(cast size_t (- 1))" },
		{ "(struct foo *)p", "(cast struct foo * p)" },
		{ "(unsigned long long)x", "(cast unsigned long long x)" },
		{ "(long unsigned int)x", "(cast unsigned long x)" },
		{ "(signed char)x", "(cast signed char x)" },
		{ "(char **)x", "(cast char ** x)" },
		{ "(string)x", "(cast string x)" },
		{ "(uint8_t)(int)x", "(cast uint8_t (cast int x))" },
		{ "(const char *)x", "(cast char * x)" },
		{ "sizeof(int) * 2", "(* (sizeof int) 2)" },
		{ "sizeof x * 2", "(* (sizeof x) 2)" },
		{ "sizeof(x)", "(sizeof x)" },
		{ "sizeof(struct task_struct *)", "(sizeof struct task_struct *)" },
		{ "stringof(a) == \"x\"", "(== (stringof a) \"x\")" },
		{ "stringof a", "(stringof a)" },
		{ "offsetof(struct s, f)", "(offsetof struct s f)" },
		{ "xlate<psinfo_t *>(p)->pr_pid", "(-> (xlate psinfo_t * p) pr_pid)" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		cr_expect_str_eq(stmt(cases[i][0]), cases[i][1], "%s", cases[i][0]);
}

static bool my_typedefs(void *ctx, const char *name)
{
	cr_assert_str_eq(ctx, "ctx");
	return !strcmp(name, "pid_t") || !strcmp(name, "sched");
}

Test(parse, typedef_name_followed_by_colon_is_a_probe)
{
	struct parse_opts o = { .is_typedef = my_typedefs, .ctx = "ctx" };
	struct node *p = parse_opts("sched:::on-cpu { }\nsched s;\n", &o);
	cr_assert_eq(diag_errors(dg), 0, "%s", diags());
	cr_assert_eq(p->list->kind, N_CLAUSE);
	cr_assert_str_eq(p->list->list->prov, "sched");
	cr_assert_eq(p->list->next->kind, N_DECL);
	cr_assert_str_eq(p->list->next->a->name, "sched");
}

Test(parse, typedef_names_make_casts)
{
	struct parse_opts o = { .is_typedef = my_typedefs, .ctx = "ctx" };
	struct node *p = parse_opts("BEGIN { x = (pid_t)y; }", &o);
	cr_assert_eq(diag_errors(dg), 0, "%s", diags());
	cr_assert_str_eq(sexpr(first_clause(p)->b), "(= x (cast pid_t y))");

	p = parse("typedef unsigned int myint;\nBEGIN { x = (myint)y; }");
	cr_assert_eq(diag_errors(dg), 0, "%s", diags());
	cr_assert_str_eq(sexpr(first_clause(p)->b), "(= x (cast myint y))");

	/* unknown: a parenthesized identifier, then a stray token */
	parse("BEGIN { x = (pid_t)y; }");
	cr_assert_str_eq(diags(), "p.d:1:20: error: expected ';' after expression\n"
				  "BEGIN { x = (pid_t)y; }\n                   ^\n");
}

Test(parse, variables_aggregations_macros)
{
	static const char *const cases[][2] = {
		{ "@a[1, \"x\"] = count()", "(= (@a 1 \"x\") (call count))" },
		{ "@ = sum(arg0)", "(= @ (call sum arg0))" },
		{ "printa(\"%d\", @a)", "(call printa \"%d\" @a)" },
		{ "clear(@)", "(call clear @)" },
		{ "self->x = this->y", "(= self->x this->y)" },
		{ "self->p->q", "(-> self->p q)" },
		{ "$1 + $$2 + $target", "(+ (+ $1 $$2) $target)" },
		{ "x = $pid", "(= x $pid)" },
		{ "'a' + '\\n'", "(+ 97 10)" },
		{ "\"a\\tb\"", "\"a\tb\"" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		cr_expect_str_eq(stmt(cases[i][0]), cases[i][1], "%s", cases[i][0]);
}

Test(parse, macro_nodes)
{
	struct node *p = parse("BEGIN { a = $3; b = $$12; c = $target; }");
	const struct node *s = first_clause(p)->b;
	cr_assert_eq(s->b->kind, N_MACRO);
	cr_assert_str_eq(s->b->name, "3");
	cr_assert_eq(s->b->ival, 0);
	cr_assert_str_eq(s->next->b->name, "12");
	cr_assert_eq(s->next->b->ival, 1);
	cr_assert_str_eq(s->next->next->b->name, "target");
}

static void check_desc(const struct node *d, const char *str, const char *prov, const char *mod,
		       const char *func, const char *name)
{
	cr_assert_eq(d->kind, N_PROBEDESC);
	cr_expect_str_eq(d->str, str);
	cr_expect_str_eq(d->prov, prov, "%s", str);
	cr_expect_str_eq(d->mod, mod, "%s", str);
	cr_expect_str_eq(d->func, func, "%s", str);
	cr_expect_str_eq(d->pname, name, "%s", str);
}

Test(parse, probe_descriptions_fill_from_the_right)
{
	struct node *p = parse("syscall::open*:entry, BEGIN, a:b, m:f:n,\n"
			       "  pid$target:libc.so.6:malloc:entry, profile:::tick-1sec,"
			       " :::, fbt::vfs_[rw]*:entry, 123 {}");
	cr_assert_eq(diag_errors(dg), 0, "%s", diags());
	const struct node *c = first_clause(p);
	cr_assert_eq(ast_list_len(c->list), 9);
	const struct node *d = c->list;
	check_desc(d, "syscall::open*:entry", "syscall", "", "open*", "entry");
	check_desc(d = d->next, "BEGIN", "", "", "", "BEGIN");
	check_desc(d = d->next, "a:b", "", "", "a", "b");
	check_desc(d = d->next, "m:f:n", "", "m", "f", "n");
	check_desc(d = d->next, "pid$target:libc.so.6:malloc:entry", "pid$target", "libc.so.6",
		   "malloc", "entry");
	cr_assert_eq(d->loc.line, 2);
	cr_assert_eq(d->loc.col, 3);
	cr_assert_eq(d->loc.len, 33);
	check_desc(d = d->next, "profile:::tick-1sec", "profile", "", "", "tick-1sec");
	check_desc(d = d->next, ":::", "", "", "", "");
	check_desc(d = d->next, "fbt::vfs_[rw]*:entry", "fbt", "", "vfs_[rw]*", "entry");
	cr_assert_eq(d->ival, 0);
	check_desc(d = d->next, "123", "", "", "", "123");
	cr_assert_eq(d->ival, 123);
}

Test(parse, clause_shape_and_empty_statements)
{
	struct node *p = parse("BEGIN /x > 1/ { ; a = 1;; b = 2 ;; }\nEND { c }\ntick-1s{}");
	cr_assert_eq(diag_errors(dg), 0, "%s", diags());
	cr_assert_eq(ast_list_len(p->list), 3);
	const struct node *c = p->list;
	cr_assert_str_eq(sexpr(c->a), "(> x 1)");
	cr_assert_eq(ast_list_len(c->b), 2); /* empty statements leave nothing */
	cr_assert_eq(c->ival, 0);
	c = c->next;
	cr_assert_null(c->a);
	cr_assert_eq(ast_list_len(c->b), 1); /* the last ';' is optional */
	c = c->next;
	cr_assert_null(c->b);
	cr_assert_str_eq(c->list->pname, "tick-1s");
}

Test(parse, predicate_division_and_slash_end)
{
	struct node *p = parse("BEGIN /a / 2 > b/{ x = a / b; }");
	cr_assert_eq(diag_errors(dg), 0, "%s", diags());
	cr_assert_str_eq(sexpr(p->list->a), "(> (/ a 2) b)");
	cr_assert_str_eq(sexpr(p->list->b), "(= x (/ a b))");
}

Test(parse, descriptions_mode_allows_bodyless_clauses)
{
	struct parse_opts o = { .descriptions = true };
	struct node *p = parse_opts("syscall::read:entry", &o);
	cr_assert_eq(diag_errors(dg), 0, "%s", diags());
	cr_assert_eq(p->list->kind, N_CLAUSE);
	cr_assert_eq(p->list->ival, 1);
	cr_assert_null(p->list->b);

	p = parse_opts("BEGIN, END\nsyscall::write:entry /pid == 1/\nprofile:::tick-1sec { trace(1) }",
		       &o);
	cr_assert_eq(diag_errors(dg), 0, "%s", diags());
	cr_assert_eq(ast_list_len(p->list), 3);
	const struct node *c = p->list;
	cr_assert_eq(ast_list_len(c->list), 2);
	cr_assert_eq(c->ival, 1);
	c = c->next;
	cr_assert_eq(c->ival, 1);
	cr_assert_str_eq(sexpr(c->a), "(== pid 1)");
	c = c->next;
	cr_assert_eq(c->ival, 0);
	cr_assert_eq(ast_list_len(c->b), 1);
}

Test(parse, bare_probe_in_a_script_is_an_error)
{
	parse("syscall::read:entry\n");
	cr_assert_str_eq(diags(), "p.d:1:1: error: probe description 'syscall::read:entry' has no "
				  "clause body\nsyscall::read:entry\n^~~~~~~~~~~~~~~~~~~\n");
}

Test(parse, locations_cover_constructs)
{
	struct node *p = parse("BEGIN\n{\n\tx = foo(a + bb, 2);\n}\n");
	cr_assert_eq(diag_errors(dg), 0);
	const struct node *c = p->list;
	cr_assert_eq(c->loc.line, 1);
	cr_assert_eq(c->loc.len, 30, "%u", c->loc.len); /* the whole clause */
	const struct node *as = c->b;
	cr_assert_eq(as->kind, N_ASSIGN);
	cr_assert_eq(as->loc.line, 3);
	cr_assert_eq(as->loc.col, 2);
	cr_assert_eq(as->loc.len, 18);
	cr_assert_eq(as->op_loc.col, 4);
	cr_assert_eq(as->op_loc.len, 1);
	const struct node *call = as->b;
	cr_assert_eq(call->loc.col, 6);
	cr_assert_eq(call->loc.len, 14);
	cr_assert_eq(call->op_loc.col, 6); /* the name */
	cr_assert_eq(call->op_loc.len, 3);
	const struct node *add = call->list;
	cr_assert_eq(add->loc.col, 10);
	cr_assert_eq(add->loc.len, 6);
	cr_assert_eq(add->op_loc.col, 12);
	cr_assert_eq(add->b->loc.len, 2);
}

Test(parse, pragmas_in_source_order)
{
	struct node *p = parse("#pragma D option quiet\nBEGIN {\n#pragma D option bufsize=8k\n}\n"
			       "#pragma D depends_on module vmlinux\n");
	cr_assert_eq(diag_errors(dg), 0, "%s", diags());
	cr_assert_str_eq(dump(p), "N_PROGRAM 1:1\n"
				  "  N_PRAGMA option 'quiet' 1:1\n"
				  "    N_OPTION quiet 1:1\n"
				  "  N_CLAUSE 2:1\n"
				  "    N_PROBEDESC 'BEGIN' [:::BEGIN] 2:1\n"
				  "  N_PRAGMA option 'bufsize=8k' 3:1\n"
				  "    N_OPTION bufsize='8k' 3:1\n"
				  "  N_PRAGMA depends_on 'module vmlinux' 5:1\n");
}

Test(parse, declarations_dump)
{
	struct node *p = parse("self int x, *y[4];\nstruct s { int a : 3; char b[2]; };\n"
			       "enum e { A, B = 2 };\ninline int N = 5;\n");
	cr_assert_eq(diag_errors(dg), 0, "%s", diags());
	cr_assert_str_eq(dump(p), "N_PROGRAM 1:1\n"
				  "  N_DECL self 1:1\n"
				  "    N_TSPEC int 1:6\n"
				  "    N_DECLARATOR x 1:10\n"
				  "    N_DECLARATOR *y 1:13\n"
				  "      dim: N_INT 4 1:16\n"
				  "  N_DECL 2:1\n"
				  "    N_TSPEC struct s {} 2:1\n"
				  "      N_DECL 2:12\n"
				  "        N_TSPEC int 2:12\n"
				  "        N_DECLARATOR a 2:16\n"
				  "          width: N_INT 3 2:20\n"
				  "      N_DECL 2:23\n"
				  "        N_TSPEC char 2:23\n"
				  "        N_DECLARATOR b 2:28\n"
				  "          dim: N_INT 2 2:30\n"
				  "  N_DECL 3:1\n"
				  "    N_TSPEC enum e {} 3:1\n"
				  "      N_ENUMERATOR A 3:10\n"
				  "      N_ENUMERATOR B 3:13\n"
				  "        N_INT 2 3:17\n"
				  "  N_INLINE N 4:1\n"
				  "    N_TYPENAME 4:8\n"
				  "      N_TSPEC int 4:8\n"
				  "    N_INT 5 4:16\n");
}

Test(parse, translator_and_provider)
{
	struct node *p = parse("translator psinfo_t < struct task_struct *T > { pr_pid = T->pid; };\n"
			       "provider pv { probe go(int, char *) : (long); };\n");
	cr_assert_eq(diag_errors(dg), 0, "%s", diags());
	const struct node *t = p->list;
	cr_assert_eq(t->kind, N_TRANSLATOR);
	cr_assert_str_eq(t->name, "T");
	cr_assert_str_eq(t->a->a->name, "psinfo_t");
	cr_assert_eq(t->a->a->ival, TS_TYPEDEF);
	cr_assert_eq(t->b->a->ival, TS_STRUCT);
	cr_assert_str_eq(t->b->a->name, "task_struct");
	cr_assert_eq(t->b->b->ival, 1);
	cr_assert_str_eq(t->list->name, "pr_pid");
	cr_assert_str_eq(sexpr(t->list->a), "(-> T pid)");
	const struct node *pv = t->next;
	cr_assert_eq(pv->kind, N_PROVIDER);
	cr_assert_str_eq(pv->name, "pv");
	const struct node *pr = pv->list;
	cr_assert_str_eq(pr->name, "go");
	cr_assert_eq(pr->iflags, DF_FUNC);
	cr_assert_eq(ast_list_len(pr->c), 2);
	cr_assert_str_eq(pr->c->next->a->name, "char");
	cr_assert_eq(pr->c->next->b->ival, 1);
	cr_assert_eq(ast_list_len(pr->d), 1);
	cr_assert_str_eq(pr->d->a->name, "long");
}

Test(parse, module_scoped_types)
{
	struct node *p = parse("vmlinux`struct task_struct *t;\n"
			       "BEGIN { x = (vmlinux`struct task_struct *)curthread; }");
	cr_assert_eq(diag_errors(dg), 0, "%s", diags());
	cr_assert_str_eq(p->list->a->str, "vmlinux");
	cr_assert_str_eq(p->list->a->name, "task_struct");
	const struct node *cast = p->list->next->b->b;
	cr_assert_eq(cast->kind, N_CAST);
	cr_assert_str_eq(cast->a->a->str, "vmlinux");
}

Test(parse, several_errors_then_recovery)
{
	struct node *p = parse("BEGIN { x = ; y = 1; }\nEND { if (x) { y = 2; } z = 3; }\n");
	cr_assert_eq(diag_errors(dg), 2);
	/* both clauses are kept with the statements that parsed */
	cr_assert_eq(ast_list_len(p->list), 2);
	cr_assert_str_eq(sexpr(p->list->b), "(= y 1)");
	cr_assert_str_eq(sexpr(p->list->next->b), "(= z 3)");
}

Test(parse, error_limit)
{
	char src[2048] = "BEGIN {\n";
	for (int i = 0; i < 30; i++)
		strcat(src, "x = ;\n");
	strcat(src, "}\n");
	parse(src);
	cr_assert_eq(diag_errors(dg), 21); /* 20 and the fatal one */
	const char *d = diags();
	const char *last = "dcc: error: too many errors emitted, stopping now\n";
	cr_assert_str_eq(d + strlen(d) - strlen(last), last);
}

Test(parse, empty_program)
{
	struct node *p = parse("/* nothing */\n");
	cr_assert_eq(diag_errors(dg), 0);
	cr_assert_eq(p->kind, N_PROGRAM);
	cr_assert_null(p->list);
}

Test(parse, names_of_kinds_and_operators)
{
	cr_assert_str_eq(ast_kind_name(N_BINOP), "N_BINOP");
	cr_assert_str_eq(ast_kind_name(N_PROBEDESC), "N_PROBEDESC");
	cr_assert_str_eq(ast_op_name('+'), "+");
	cr_assert_str_eq(ast_op_name(OP_SHL), "<<");
	cr_assert_str_eq(ast_op_name(OP_LXOR), "^^");
	cr_assert_str_eq(ast_op_name(OP_ARROW), "->");
	cr_assert_str_eq(ast_op_name(OP_POSTDEC), "--");
	cr_assert_str_eq(ast_op_name(OP_NE), "!=");
	cr_assert_eq(ast_list_len(NULL), 0);
}

Test(parse, dump_of_expressions)
{
	struct node *p = parse("BEGIN { @c[pid] = count(); x += (int)y ? 'a' : -z++; }");
	cr_assert_eq(diag_errors(dg), 0, "%s", diags());
	cr_assert_str_eq(dump(p->list), "N_CLAUSE 1:1\n"
					"  N_PROBEDESC 'BEGIN' [:::BEGIN] 1:1\n"
					"  N_ASSIGN '=' 1:9\n"
					"    N_AGG @c 1:9\n"
					"      key: N_IDENT pid 1:12\n"
					"    N_CALL count 1:19\n"
					"  N_ASSIGN '+=' 1:28\n"
					"    N_IDENT x 1:28\n"
					"    N_COND 1:33\n"
					"      N_CAST 1:33\n"
					"        N_TYPENAME 1:34\n"
					"          N_TSPEC int 1:34\n"
					"        N_IDENT y 1:38\n"
					"      N_INT 97 char 1:42\n"
					"      N_UNOP '-' 1:48\n"
					"        N_UNOP 'post++' 1:49\n"
					"          N_IDENT z 1:49\n");
}

Test(parse, every_reserved_word_is_refused_by_name)
{
	static const char *const stmt_words[][2] = {
		{ "if", "'if' statements are not supported in D" },
		{ "else", "'else' is not supported in D" },
		{ "switch", "'switch' statements are not supported in D" },
		{ "for", "'for' loops are not supported in D" },
		{ "while", "'while' loops are not supported in D" },
		{ "do", "'do' loops are not supported in D" },
		{ "return", "'return' statements are not supported in D" },
		{ "break", "'break' statements are not supported in D" },
		{ "continue", "'continue' statements are not supported in D" },
		{ "goto", "'goto' statements are not supported in D" },
	};
	static const char *const other[] = {
		"auto", "case", "default", "extern", "import", "register", "restrict",
		"static", "volatile", "counter",
	};
	for (size_t i = 0; i < sizeof(stmt_words) / sizeof(stmt_words[0]); i++) {
		fflush(dout);
		size_t before = dlen;
		parse(arena_printf(ar, "BEGIN { %s x; y = 1; }", stmt_words[i][0]));
		fflush(dout);
		char *want = arena_printf(ar, "p.d:1:9: error: %s\n", stmt_words[i][1]);
		cr_expect(!strncmp(dbuf + before, want, strlen(want)), "%s: %s", stmt_words[i][0],
			  dbuf + before);
	}
	for (size_t i = 0; i < sizeof(other) / sizeof(other[0]); i++) {
		fflush(dout);
		size_t before = dlen;
		parse(arena_printf(ar, "BEGIN { y = %s; }", other[i]));
		fflush(dout);
		char *want = arena_printf(ar, "p.d:1:13: error: reserved word '%s' cannot be used\n",
					  other[i]);
		cr_expect(!strncmp(dbuf + before, want, strlen(want)), "%s: %s", other[i],
			  dbuf + before);
	}
	/* each refused word is one error; the statement after it still parses */
	cr_assert_eq(diag_errors(dg), 20);
}

Test(parse, storage_classes_are_declarations_at_top_level)
{
	struct node *p = parse("extern int a;\nstatic int b;\nregister int c;\nauto int d;\n"
			       "volatile int e;\n");
	cr_assert_eq(diag_errors(dg), 0, "%s", diags());
	const int want[] = { ST_EXTERN, ST_STATIC, ST_REGISTER, ST_AUTO, ST_NONE };
	const struct node *d = p->list;
	for (int i = 0; i < 5; i++, d = d->next) {
		cr_assert_eq(d->kind, N_DECL);
		cr_assert_eq(d->ival, (uint64_t)want[i], "decl %d", i);
	}
	cr_assert_eq(p->list->next->next->next->next->a->iflags & TSF_VOLATILE, TSF_VOLATILE);
}

Test(parse, deep_nesting_is_refused_not_a_crash)
{
	size_t n = 100000;
	char *src = malloc(2 * n + 32);
	strcpy(src, "BEGIN { x = ");
	size_t k = strlen(src);
	memset(src + k, '(', n);
	src[k + n] = '1';
	memset(src + k + n + 1, ')', n);
	strcpy(src + k + 2 * n + 1, "; }");
	parse(src);
	free(src);
	cr_assert_eq(diag_errors(dg), 1);
	cr_assert(strstr(diags(), "error: expression or type is nested too deeply\n"));
	/* 100 levels are fine */
	char ok[512] = "BEGIN { x = ";
	for (int i = 0; i < 100; i++)
		strcat(ok, "(");
	strcat(ok, "1");
	for (int i = 0; i < 100; i++)
		strcat(ok, ")");
	strcat(ok, "; }");
	parse(ok);
	cr_assert_eq(diag_errors(dg), 1);
}

Test(parse, crlf_line_endings_and_odd_layout)
{
	struct node *p = parse("#pragma D option quiet\r\nsyscall::read:entry\r\n,\r\nBEGIN\r\n"
			       "/pid/\r\n{\r\n\ttrace(1);\r\n}\r\nEND{}END/x/{}");
	cr_assert_eq(diag_errors(dg), 0, "%s", diags());
	cr_assert_eq(ast_list_len(p->list), 4);
	cr_assert_str_eq(p->list->a->name, "quiet");
	const struct node *c = p->list->next;
	cr_assert_eq(ast_list_len(c->list), 2);
	cr_assert_str_eq(c->list->next->pname, "BEGIN");
	cr_assert_str_eq(sexpr(c->a), "pid");
	cr_assert_str_eq(p->list->next->next->next->list->pname, "END");
}
