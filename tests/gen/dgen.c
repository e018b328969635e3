/*
 * dgen SEED: writes on stdout a random, well-typed D program made from the
 * grammar (the whole-compiler fuzzer of issue 12). Every program of every
 * seed should either get a diagnostic from dcc or become an object that
 * the kernel's verifier accepts and that runs to its exit() with no fault
 * it did not ask for; check.sh runs them and says which did not.
 *
 * The program is typed by construction: expressions are generated for a
 * wanted type (integer or string), variables keep one type each, divisors
 * and shift counts are kept in range, nothing is dereferenced but
 * curthread, and the string thread-local, NULL in every thread but
 * BEGIN's, is tested before it is read. Statements are assignments (plain, compound, ++ and --),
 * aggregations (with keys of one or two parts), printf() and trace().
 * It ends by itself: a tick probe calls exit() after a few
 * firings, and the syscall clauses fire on the trigger's getppid() calls.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng;

static uint32_t rnd(uint32_t n)
{
	/* xorshift64*: the same program for the same seed on every machine */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (uint32_t)((rng * 0x2545F4914F6CDD1DULL) >> 32) % n;
}

static void out(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

enum ctx { C_BEGIN, C_SYSCALL, C_TICK, C_END };
static enum ctx cur;

static void int_expr(int depth);
static void str_expr(int depth);

static const char *const int_vars[] = { "g0", "g1", "self->t0", "this->l0", "a0[1]",
					"a0[g1 & 3]", "as0[\"k\"]" };
static const char *const str_vars[] = { "gs0", "self->st0" };

static void int_leaf(void)
{
	static const char *const builtins[] = { "pid", "tid", "cpu", "uid", "gid", "ppid",
						"timestamp", "walltimestamp", "vtimestamp",
						"curthread->pid", "curthread->tgid", "epid",
						"id", "errno", "stackdepth" };

	switch (rnd(6)) {
	case 0:
		out("%u", rnd(1000));
		break;
	case 1:
		out("%s", (const char *[]){ "0", "1", "-1", "0x7fffffff", "0xffffffffffffffff",
					   "-9223372036854775807", "255", "4096" }[rnd(8)]);
		break;
	case 2:
		out("%s", builtins[rnd(sizeof(builtins) / sizeof(*builtins))]);
		break;
	case 3:
		/* arguments exist in the syscall probe only */
		out("%s", cur == C_SYSCALL ? (rnd(2) ? "arg0" : "arg1") : "7");
		break;
	default:
		out("%s", int_vars[rnd(sizeof(int_vars) / sizeof(*int_vars))]);
		break;
	}
}

static void int_expr(int depth)
{
	static const char *const binops[] = { "+", "-", "*", "&", "|", "^", "==", "!=", "<",
					      "<=", ">", ">=", "&&", "||", "^^" };

	if (depth <= 0) {
		int_leaf();
		return;
	}
	switch (rnd(13)) {
	case 0:
	case 1:
	case 2:
		out("(");
		int_expr(depth - 1);
		out(" %s ", binops[rnd(sizeof(binops) / sizeof(*binops))]);
		int_expr(depth - 1);
		out(")");
		break;
	case 3:
		/* a divisor in 1..256: no division by zero that was not asked for */
		out("(");
		int_expr(depth - 1);
		out(" %s ((", rnd(2) ? "/" : "%");
		int_expr(depth - 1);
		out(" & 0xff) + 1))");
		break;
	case 4:
		out("(");
		int_expr(depth - 1);
		out(" %s (", rnd(2) ? "<<" : ">>");
		int_expr(depth - 1);
		out(" & 63))");
		break;
	case 5:
		out("%s(", (const char *[]){ "-", "~", "!", "+" }[rnd(4)]);
		int_expr(depth - 1);
		out(")");
		break;
	case 6:
		out("(");
		int_expr(depth - 1);
		out(" ? ");
		int_expr(depth - 1);
		out(" : ");
		int_expr(depth - 1);
		out(")");
		break;
	case 7:
		out("((%s)", (const char *[]){ "uint8_t", "int16_t", "uint32_t", "int32_t",
					       "int64_t", "char", "unsigned short" }[rnd(7)]);
		int_expr(depth - 1);
		out(")");
		break;
	case 8:
		out("strlen(");
		str_expr(depth - 1);
		out(")");
		break;
	case 9:
		out("(");
		str_expr(depth - 1);
		out(" %s ", (const char *[]){ "==", "!=", "<", ">=" }[rnd(4)]);
		str_expr(depth - 1);
		out(")");
		break;
	case 10:
		out("%s(", (const char *[]){ "index", "rindex" }[rnd(2)]);
		str_expr(depth - 1);
		out(", ");
		str_expr(depth - 1);
		out(")");
		break;
	case 11:
		out("strtoll(");
		str_expr(depth - 1);
		out(")");
		break;
	default:
		int_leaf();
		break;
	}
}

static void str_expr(int depth)
{
	/* self->st0 is set in BEGIN's thread only: elsewhere it is D's NULL
	 * string, which faults where its characters are read (as in DTrace),
	 * so it is read through a test for NULL */
	static const char *const leaves[] = { "\"\"", "\"abc\"", "\"a longer string, 32 chars\"",
					      "execname", "probefunc", "probename", "probeprov",
					      "gs0", "(self->st0 != NULL ? self->st0 : \"\")" };

	if (depth <= 0) {
		out("%s", leaves[rnd(sizeof(leaves) / sizeof(*leaves))]);
		return;
	}
	switch (rnd(8)) {
	case 0:
		out("strjoin(");
		str_expr(depth - 1);
		out(", ");
		str_expr(depth - 1);
		out(")");
		break;
	case 1:
		out("substr(");
		str_expr(depth - 1);
		out(", (");
		int_expr(depth - 1);
		out(") & 15)");
		break;
	case 2:
		out("lltostr(");
		int_expr(depth - 1);
		out(")");
		break;
	case 3:
		out("%s(", (const char *[]){ "toupper", "tolower", "basename", "dirname" }[rnd(4)]);
		str_expr(depth - 1);
		out(")");
		break;
	case 4:
		out("(");
		int_expr(depth - 1);
		out(" ? ");
		str_expr(depth - 1);
		out(" : ");
		str_expr(depth - 1);
		out(")");
		break;
	default:
		str_expr(0);
		break;
	}
}

static void statement(void)
{
	int d = 1 + (int)rnd(3);

	out("\t");
	switch (rnd(18)) {
	case 0:
	case 1:
		out("%s = ", int_vars[rnd(sizeof(int_vars) / sizeof(*int_vars))]);
		int_expr(d);
		break;
	case 2:
		out("%s = ", str_vars[rnd(2)]);
		str_expr(d);
		break;
	case 3:
		out("@c[");
		str_expr(d);
		out("] = count()");
		break;
	case 4:
		out("@s[");
		int_expr(1);
		out("] = sum(");
		int_expr(d);
		out(")");
		break;
	case 5:
		out("%s(", rnd(2) ? "@mx = max" : "@mn = min");
		int_expr(d);
		out(")");
		break;
	case 6:
		out("@q = quantize(");
		int_expr(d);
		out(")");
		break;
	case 7:
		out("@l = lquantize(");
		int_expr(d);
		out(", 0, 100, 10)");
		break;
	case 8:
		out("@a = avg(");
		int_expr(d);
		out(")");
		break;
	case 9:
		out("printf(\"%%d %%s %%x\\n\", ");
		int_expr(d);
		out(", ");
		str_expr(d);
		out(", ");
		int_expr(1);
		out(")");
		break;
	case 10:
		out("trace(");
		if (rnd(2))
			int_expr(d);
		else
			str_expr(d);
		out(")");
		break;
	case 11:
		/* a thread-local set to 0 is freed */
		out("self->t0 = 0");
		break;
	case 12:
		out("as0[");
		str_expr(1);
		out("] = ");
		int_expr(d);
		break;
	case 13:
		/* compound assignments, divisors and shift counts in range */
		out("%s %s", int_vars[rnd(sizeof(int_vars) / sizeof(*int_vars))],
		    (const char *[]){ "+=", "-=", "*=", "&=", "|=", "^=", "<<=", ">>=", "/=",
				      "%=" }[rnd(10)]);
		out(" ((");
		int_expr(d);
		out(") & 63) + 1");
		break;
	case 14: {
		const char *v = int_vars[rnd(sizeof(int_vars) / sizeof(*int_vars))];
		const char *op = rnd(2) ? "++" : "--";
		if (rnd(2))
			out("%s%s", op, v);
		else
			out("%s%s", v, op);
		break;
	}
	case 15: {
		/* a key of two parts */
		const char *f = rnd(2) ? "sum" : "max";
		out("@k%s[", f);
		str_expr(1);
		out(", ");
		int_expr(1);
		out("] = %s(", f);
		int_expr(d);
		out(")");
		break;
	}
	case 16:
		out("@sd = stddev(");
		int_expr(d);
		out(")");
		break;
	default:
		out("this->l0 = ");
		int_expr(d);
		break;
	}
	out(";\n");
}

static void clause(const char *probe, enum ctx c, int nstmts)
{
	cur = c;
	out("%s\n", probe);
	if (rnd(3) == 0) {
		out("/");
		int_expr(1 + (int)rnd(2));
		out("/\n");
	}
	out("{\n");
	for (int i = 0; i < nstmts; i++)
		statement();
	out("}\n\n");
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: dgen SEED\n");
		return 2;
	}
	rng = strtoull(argv[1], NULL, 0) * 0x9E3779B97F4A7C15ULL + 1;
	for (int i = 0; i < 4; i++)
		rnd(2);
	out("/* dgen %s */\n", argv[1]);
	if (rnd(4) == 0)
		out("#pragma D option strsize=%u\n", 256u << rnd(3)); /* strjoin()s of depth 3 fit in 256 */
	if (rnd(4) == 0)
		out("#pragma D option quiet\n");
	out("int g0, g1;\nstring gs0;\nself int t0;\nself string st0;\nthis int l0;\n"
	    "int a0[int];\nint as0[string];\nint ticks;\n\n");
	out("BEGIN\n{\n\tg0 = 1;\n\tg1 = 2;\n\tgs0 = \"start\";\n\tself->st0 = \"x\";\n}\n\n");
	clause("BEGIN", C_BEGIN, 1 + (int)rnd(4));
	int n = 1 + (int)rnd(4);
	for (int i = 0; i < n; i++) {
		switch (rnd(3)) {
		case 0:
			clause("syscall::getppid:entry", C_SYSCALL, 1 + (int)rnd(5));
			break;
		case 1:
			clause("syscall::getppid:return", C_SYSCALL, 1 + (int)rnd(5));
			break;
		default:
			clause("tick-10ms", C_TICK, 1 + (int)rnd(3));
			break;
		}
	}
	if (rnd(2))
		clause("END", C_END, 1 + (int)rnd(3));
	out("tick-10ms\n{\n\tticks++;\n}\n\ntick-10ms\n/ticks >= 3/\n{\n\texit(0);\n}\n");
	return 0;
}
