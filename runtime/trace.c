/*
 * trace() output: integers with DTrace for Linux's sign-aware widths (or the
 * classic ones with -x tracefmt=classic), floating-point values as %g,
 * strings padded to 33 columns, and byte blobs as a string when they look
 * like one, else as a hex dump.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "rt.h"

static void trace_int(struct dcc_runtime *rt, FILE *out, const struct rt_val *v)
{
	uint64_t u = v->size >= 8 ? (uint64_t)v->i : (uint64_t)v->i & ((1ULL << (8 * v->size)) - 1);
	int w;

	if (rt->classic) {
		static const int cw[] = { [1] = 3, [2] = 5, [4] = 8, [8] = 16 };
		long long n = v->size == 8 ? (long long)v->i
			    : v->size == 4 ? (long long)(int32_t)u : (long long)u;

		if (rt->quiet)
			fprintf(out, "%lld", n);
		else
			fprintf(out, " %*lld", cw[v->size], n);
		return;
	}
	switch (v->size) {
	case 8: w = v->is_signed ? 19 : 20; break;
	case 4: w = 10; break;
	case 2: w = 5; break;
	default: w = 3; break;
	}
	if (rt->quiet) {
		if (v->is_signed)
			fprintf(out, "%lld", (long long)v->i);
		else
			fprintf(out, "%llu", (unsigned long long)u);
	} else {
		if (v->is_signed)
			fprintf(out, " %*lld", w, (long long)v->i);
		else
			fprintf(out, " %*llu", w, (unsigned long long)u);
	}
}

/*
 * dcc's choice, DTrace having none: %g, and in non-quiet mode the width of
 * the integer of the same size, " %10g" for a float and " %19g" for a
 * double or long double, so columns of mixed values line up.
 */
static void trace_float(struct dcc_runtime *rt, FILE *out, const struct rt_val *v)
{
	struct pf_spec sp = { .width = -1, .prec = -1, .conv = 'g' };

	if (!rt->quiet) {
		sp.width = v->size == 4 ? 10 : 19;
		fputc(' ', out);
	}
	rt_printf_float(out, &sp, v);
}

static bool printable(unsigned char c)
{
	return isprint(c) || isspace(c) || c == '\a' || c == '\b';
}

void rt_hexdump(FILE *out, const void *p, size_t n)
{
	const unsigned char *c = p;
	const int margin = 5;

	fprintf(out, "\n%*s      ", margin, "");
	for (int i = 0; i < 16; i++)
		fprintf(out, "  %c", "0123456789abcdef"[i]);
	fprintf(out, "  0123456789abcdef\n");
	for (size_t i = 0; i < n; i += 16) {
		size_t j;

		fprintf(out, "%*s%5zx:", margin, "", i);
		for (j = i; j < i + 16 && j < n; j++)
			fprintf(out, " %02x", c[j]);
		for (; j % 16; j++)
			fputs("   ", out);
		fputs("  ", out);
		for (j = i; j < i + 16 && j < n; j++)
			fputc(c[j] < ' ' || c[j] > '~' ? '.' : c[j], out);
		fputc('\n', out);
	}
}

void rt_print_bytes(struct dcc_runtime *rt, FILE *out, const char *p, size_t n, int width,
		    bool quiet)
{
	const unsigned char *c = (const unsigned char *)p;
	size_t i, j;

	if (!rt->rawbytes) {
		for (i = 0; i < n && printable(c[i]); i++)
			;
		if (i == n || (c[i] == '\0' && i > 0)) {
			for (j = i; j < n && c[j] == '\0'; j++)
				;
			if (j == n) {
				if (quiet)
					fprintf(out, "%.*s", (int)i, p);
				else if (j == i)
					/* all printable, no NUL */
					fprintf(out, "  %-*.*s", width, (int)i, p);
				else
					fprintf(out, " %s%*.*s", width < 0 ? " " : "", width,
						(int)i, p);
				return;
			}
		}
	}
	rt_hexdump(out, c, n);
}

/* n characters of text as trace() prints a string: bare when quiet, else
 * in DTrace's column */
static void trace_text(struct dcc_runtime *rt, FILE *out, const char *p, int n)
{
	if (rt->quiet)
		fprintf(out, "%.*s", n, p);
	else
		fprintf(out, "  %-33.*s", n, p);
}

bool rt_is_char_array(const char *type)
{
	static const char *const names[] = { "char [", "signed char [", "unsigned char [" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (type && !strncmp(type, names[i], strlen(names[i])))
			return true;
	return false;
}

/*
 * trace() of a char array: DTrace for Linux prints it as a string when its
 * bytes read as one (printable up to the first NUL, nothing but NULs after
 * it, or printable throughout), and dumps the bytes otherwise. Other arrays,
 * structs and unions are always dumped.
 */
void rt_trace_chars(struct dcc_runtime *rt, FILE *out, const struct rt_val *v)
{
	const unsigned char *c = (const unsigned char *)v->p;
	size_t i, j;

	for (i = 0; i < v->size && printable(c[i]); i++)
		;
	for (j = i; j < v->size && c[j] == '\0'; j++)
		;
	if (!rt->rawbytes && j == v->size && (i == v->size || i > 0)) {
		trace_text(rt, out, v->p, (int)i);
		return;
	}
	rt_hexdump(out, v->p, v->size);
}

void rt_trace(struct dcc_runtime *rt, FILE *out, const struct rt_val *v)
{
	switch (v->kind) {
	case DCC_K_INT:
		trace_int(rt, out, v);
		break;
	case DCC_K_FLOAT:
		trace_float(rt, out, v);
		break;
	case DCC_K_INET: {
		char tb[RT_INET_LEN];
		struct rt_val sv;

		rt_inet_string(v, tb, rt->strsize, &sv);
		rt_trace(rt, out, &sv);
		break;
	}
	case DCC_K_STRING: {
		/* a string is at most strsize characters, whatever its storage */
		size_t cut = v->size < rt->strsize ? v->size : rt->strsize;
		int n = (int)strnlen(v->p, cut);

		if (rt->rawbytes) { /* the string's storage: strsize bytes and a NUL */
			char raw[4097] = { 0 };
			size_t len = rt->strsize + 1;

			memcpy(raw, v->p, cut);
			rt_hexdump(out, raw, len);
		} else {
			trace_text(rt, out, v->p, n);
		}
		break;
	}
	case DCC_K_STACK:
	case DCC_K_USTACK:
		rt_print_stack(rt, out, v, NULL);
		break;
	case DCC_K_SYM: case DCC_K_MOD: case DCC_K_USYM: case DCC_K_UADDR: case DCC_K_UMOD: {
		char buf[512];

		rt_addr_text(rt, v, buf, sizeof(buf));
		fprintf(out, "  %-50s", buf);
		break;
	}
	default:
		/* an array or a struct: DTrace for Linux dumps its bytes, even
		 * when they would read as a string */
		rt_hexdump(out, v->p, v->size);
		break;
	}
}
