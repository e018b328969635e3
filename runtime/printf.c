/*
 * The printf engine: walks a D format string and renders each conversion
 * from decoded values with C printf semantics, using each value's real size
 * and signedness (size prefixes in the format are accepted and ignored). The
 * specs are tokenized by headers/dcc/abi_fmt.h, as sema's checks are.
 * Floating-point values go to the C library's own e E f g G with their own
 * type (a float promoted to double, a long double with L), so the text is
 * C's byte for byte. printa() reuses it with the key elements as arguments
 * and a callback for the %@ conversions.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <dcc/abi_fmt.h>
#include "rt.h"

#define PF_MAX_WIDTH ABI_FMT_MAX_WIDTH

static int fail(char *why, size_t whylen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* The decimal digits of n at p; returns their end. */
static char *put_uint(char *p, unsigned n)
{
	char d[12];
	int k = 0;

	do {
		d[k++] = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	while (k)
		*p++ = d[--k];
	return p;
}

/* buf (at least 48 bytes) gets "%<flags><width>.<prec><len><conv>". */
static void cspec(char *buf, size_t n, const struct pf_spec *sp, const char *len, char conv)
{
	char *p = buf;

	(void)n;
	*p++ = '%';
	for (const char *f = sp->flags; *f; f++)
		*p++ = *f;
	if (sp->width >= 0)
		p = put_uint(p, (unsigned)sp->width);
	if (sp->prec >= 0) {
		*p++ = '.';
		p = put_uint(p, (unsigned)sp->prec);
	}
	while (*len)
		*p++ = *len++;
	*p++ = conv;
	*p = '\0';
}

static void pad(FILE *out, int n)
{
	static const char sp[] = "                                ";

	for (; n > 0; n -= (int)sizeof(sp) - 1)
		fwrite(sp, 1, n < (int)sizeof(sp) - 1 ? (size_t)n : sizeof(sp) - 1, out);
}

static uint64_t zext(int64_t v, uint32_t size)
{
	return size >= 8 ? (uint64_t)v : (uint64_t)v & ((1ULL << (8 * size)) - 1);
}

/* Decimal digits in a field of width (left-justified or not). */
static void plain_dec(FILE *out, uint64_t u, bool neg, int width, bool left)
{
	char b[24], *p = b + sizeof(b);
	int n;

	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (neg)
		*--p = '-';
	n = (int)(b + sizeof(b) - p);
	if (!left)
		pad(out, width - n);
	fwrite(p, 1, (size_t)n, out);
	if (left)
		pad(out, width - n);
}

void rt_printf_int(FILE *out, const struct pf_spec *sp, int64_t v, uint32_t size, bool is_signed)
{
	char f[48];
	uint64_t u = zext(v, size);

	/* %d %i %u, padded with spaces at most: no printf needed */
	if ((!sp->flags[0] || (sp->flags[0] == '-' && !sp->flags[1])) && sp->prec < 0 &&
	    (sp->conv == 'd' || sp->conv == 'i' || sp->conv == 'u')) {
		bool neg = sp->conv != 'u' && is_signed && v < 0;

		plain_dec(out, neg ? -(uint64_t)v : u, neg, sp->width, sp->flags[0] == '-');
		return;
	}
	switch (sp->conv) {
	case 'd':
	case 'i':
		cspec(f, sizeof(f), sp, "ll", is_signed ? 'd' : 'u');
		if (is_signed)
			fprintf(out, f, (long long)v);
		else
			fprintf(out, f, (unsigned long long)u);
		break;
	case 'c':
		cspec(f, sizeof(f), sp, "", 'c');
		fprintf(out, f, (int)(unsigned char)v);
		break;
	case 'p':
		cspec(f, sizeof(f), sp, "ll", 'x');
		fprintf(out, f, (unsigned long long)u);
		break;
	default: /* u o x X */
		cspec(f, sizeof(f), sp, "ll", sp->conv);
		fprintf(out, f, (unsigned long long)u);
		break;
	}
}

long double rt_float_value(const struct rt_val *v)
{
	if (v->size == 4) {
		float f;

		memcpy(&f, v->p, sizeof(f));
		return f;
	}
	if (v->size == 8) {
		double d;

		memcpy(&d, v->p, sizeof(d));
		return d;
	}
#if LDBL_MANT_DIG == 64 && __SIZEOF_LONG_DOUBLE__ == 16
	{
		long double x;

		memcpy(&x, v->p, sizeof(x));
		return x;
	}
#else
	{
		/* x86-64's 80-bit extended: 64-bit significand with its integer
		 * bit, then sign and 15-bit exponent (bias 16383) */
		uint64_t m;
		uint16_t se;
		int e;
		long double x;

		memcpy(&m, v->p, 8);
		memcpy(&se, v->p + 8, 2);
		e = se & 0x7fff;
		if (e == 0x7fff)
			x = m << 1 ? NAN : INFINITY;
		else
			x = ldexpl((long double)m, (e ? e : 1) - 16383 - 63);
		return se >> 15 ? -x : x;
	}
#endif
}

void rt_printf_float(FILE *out, const struct pf_spec *sp, const struct rt_val *v)
{
	char f[48];

	cspec(f, sizeof(f), sp, v->size == 16 ? "L" : "", sp->conv);
	if (v->size == 16)
		fprintf(out, f, rt_float_value(v));
	else
		fprintf(out, f, (double)rt_float_value(v));
}

/* Append c to b as %S shows it. */
static size_t escape(char *b, unsigned char c)
{
	static const char from[] = "\a\b\f\n\r\t\v\"\\", to[] = "abfnrtv\"\\";
	const char *e = c ? strchr(from, c) : NULL;

	if (c == 0)
		return (size_t)sprintf(b, "\\0");
	if (e)
		return (size_t)sprintf(b, "\\%c", to[e - from]);
	if (c != ' ' && (c < '!' || c > '~'))
		return (size_t)sprintf(b, "\\%03o", c);
	b[0] = (char)c;
	b[1] = '\0';
	return 1;
}

/* s (n bytes, no NUL needed) with the spec's flags, width and precision. */
static void pf_strn(FILE *out, const struct pf_spec *sp, const char *s, size_t n)
{
	struct pf_spec b = *sp;
	char f[48];

	/* plain, padded or left-justified: no printf needed */
	if (!sp->flags[0] || (sp->flags[0] == '-' && !sp->flags[1])) {
		size_t len = sp->prec >= 0 && (size_t)sp->prec < n ? (size_t)sp->prec : n;
		int w = sp->width > (int)len ? sp->width - (int)len : 0;

		if (!sp->flags[0])
			pad(out, w);
		fwrite(s, 1, len, out);
		if (sp->flags[0])
			pad(out, w);
		return;
	}
	/* the precision bounds the bytes read: no copy needed */
	if (b.prec < 0 || (size_t)b.prec > n)
		b.prec = (int)n;
	cspec(f, sizeof(f), &b, "", 's');
	fprintf(out, f, s);
}

static void pf_str(FILE *out, const struct pf_spec *sp, const char *s)
{
	pf_strn(out, sp, s, strlen(s));
}

static void pf_time(FILE *out, const struct pf_spec *sp, int64_t ns)
{
	time_t sec = (time_t)(ns / 1000000000);
	char buf[64] = "";
	struct tm tm;

	if (localtime_r(&sec, &tm))
		strftime(buf, sizeof(buf), sp->conv == 'Y' ? "%Y %b %e %T" : "%a, %d %b %G %T %Z",
			 &tm);
	pf_str(out, sp, buf);
}

/* A NUL-terminated copy of a string or blob value. */
static char *val_str(const struct rt_val *v)
{
	size_t n = strnlen(v->p, v->size);
	char *s = malloc(n + 1);

	if (s) {
		memcpy(s, v->p, n);
		s[n] = '\0';
	}
	return s;
}

static uint64_t word(const char *p, int i)
{
	uint64_t w;

	memcpy(&w, p + 8 * i, 8);
	return w;
}

static int pf_one(struct dcc_runtime *rt, FILE *out, struct pf_spec *sp, const struct rt_val *v,
		  char *why, size_t whylen)
{
	char buf[512], f[48], *s, *e, tb[RT_INET_LEN];
	struct rt_val sv;

	if (rt_inet_string(v, tb, rt->strsize, &sv))
		v = &sv; /* %s prints the text */
	bool is_int = v->kind == DCC_K_INT;
	bool is_str = v->kind == DCC_K_STRING || v->kind == DCC_K_BYTES;

	switch (sp->conv) {
	case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': case 'c': case 'p':
		if (!is_int)
			return fail(why, whylen, "%%%c needs an integer argument", sp->conv);
		rt_printf_int(out, sp, v->i, v->size, v->is_signed);
		return 0;
	case 'e': case 'E': case 'f': case 'g': case 'G':
		if (v->kind != DCC_K_FLOAT)
			return fail(why, whylen, "%%%c needs a floating-point argument", sp->conv);
		rt_printf_float(out, sp, v);
		return 0;
	case 'C':
		if (!is_int)
			return fail(why, whylen, "%%C needs an integer argument");
		e = malloc(8);
		if (!e)
			return -ENOMEM;
		escape(e, (unsigned char)v->i);
		pf_str(out, sp, e);
		free(e);
		return 0;
	case 'Y':
	case 'T':
		if (!is_int)
			return fail(why, whylen, "%%%c needs an integer argument", sp->conv);
		pf_time(out, sp, v->i);
		return 0;
	case 's':
	case 'S':
		if (!is_str)
			return fail(why, whylen, "%%%c needs a string argument", sp->conv);
		if (sp->conv == 's') { /* a string is at most strsize characters */
			size_t cut = v->kind == DCC_K_STRING && rt->strsize < v->size ? rt->strsize
										 : v->size;
			pf_strn(out, sp, v->p, strnlen(v->p, cut));
			return 0;
		}
		if (!(s = val_str(v)))
			return -ENOMEM;
		if (sp->conv == 'S') {
			size_t n = 0;

			if (!(e = malloc(4 * strlen(s) + 1))) {
				free(s);
				return -ENOMEM;
			}
			e[0] = '\0';
			for (const char *c = s; *c; c++)
				n += escape(e + n, (unsigned char)*c);
			free(s);
			s = e;
		}
		sp->conv = 's';
		pf_str(out, sp, s);
		free(s);
		return 0;
	case 'a':
		if (!is_int && v->kind != DCC_K_SYM)
			return fail(why, whylen, "%%a needs a kernel address");
		rt_kaddr(rt, is_int ? (uint64_t)v->i : word(v->p, 0), RT_ADDR_FULL, buf,
			 sizeof(buf));
		pf_str(out, sp, buf);
		return 0;
	case 'A':
		if (is_int)
			rt_uaddr(rt, rt->target, (uint64_t)v->i, RT_ADDR_FULL, buf, sizeof(buf));
		else if (v->kind == DCC_K_USYM || v->kind == DCC_K_UADDR)
			rt_uaddr(rt, (int)word(v->p, 0), word(v->p, 1), RT_ADDR_FULL, buf,
				 sizeof(buf));
		else
			return fail(why, whylen, "%%A needs a user address");
		pf_str(out, sp, buf);
		return 0;
	case 'k':
		if (!rt_is_stack_kind(v->kind))
			return fail(why, whylen, "%%k needs a stack");
		/* the width and flags apply to each frame */
		cspec(f, sizeof(f), sp, "", 's');
		rt_print_stack(rt, out, v, f);
		return 0;
	}
	return fail(why, whylen, "conversion %%%c is not supported by this runtime", sp->conv);
}

/* The value of a '*' width or precision. */
static int star(const struct rt_val *vals, int nvals, int *ai, int *out, char *why,
		size_t whylen)
{
	int64_t n;

	if (*ai >= nvals)
		return fail(why, whylen, "missing argument for '*'");
	if (vals[*ai].kind != DCC_K_INT)
		return fail(why, whylen, "'*' needs an integer argument");
	n = vals[(*ai)++].i;
	if (n > PF_MAX_WIDTH)
		n = PF_MAX_WIDTH;
	if (n < -PF_MAX_WIDTH)
		n = -PF_MAX_WIDTH;
	*out = (int)n;
	return 0;
}

static void add_flag(struct pf_spec *sp, char c)
{
	size_t n = strlen(sp->flags);

	if (!strchr(sp->flags, c) && n + 1 < sizeof(sp->flags)) {
		sp->flags[n] = c;
		sp->flags[n + 1] = '\0';
	}
}

int rt_printf_format(struct dcc_runtime *rt, FILE *out, const char *fmt, const struct rt_val *vals,
		     int nvals, pf_agg_fn agg_cb, void *ctx, char *why, size_t whylen)
{
	const char *p = fmt;
	int ai = 0, nagg = 0, err;

	while (*p) {
		struct pf_spec sp = { .width = -1, .prec = -1 };
		struct abi_fmt_spec fs;
		const char *start = p;

		if (*p != '%') {
			const char *q = strchr(p, '%');
			size_t n = q ? (size_t)(q - p) : strlen(p);

			fwrite(p, 1, n, out);
			p += n;
			continue;
		}
		if (p[1] == '%') {
			fputc('%', out);
			p += 2;
			continue;
		}
		abi_fmt_scan(start, strlen(start), &fs);
		p = start + fs.len;
		if (!fs.conv)
			return fail(why, whylen, "incomplete conversion \"%s\"", start);
		memcpy(sp.flags, fs.flags, sizeof(sp.flags));
		sp.width = fs.width;
		sp.prec = fs.prec;
		sp.agg = fs.agg;
		sp.conv = fs.conv;
		if (sp.width == ABI_FMT_STAR) {
			if ((err = star(vals, nvals, &ai, &sp.width, why, whylen)))
				return err;
			if (sp.width < 0) {
				add_flag(&sp, '-');
				sp.width = -sp.width;
			}
		}
		if (sp.prec == ABI_FMT_STAR) {
			if ((err = star(vals, nvals, &ai, &sp.prec, why, whylen)))
				return err;
			if (sp.prec < 0)
				sp.prec = -1;
		}
		if (sp.agg) {
			if (!agg_cb)
				return fail(why, whylen, "%%@ outside printa");
			agg_cb(ctx, out, &sp, nagg++);
			continue;
		}
		if (ai >= nvals)
			return fail(why, whylen, "missing argument for %%%c", sp.conv);
		err = pf_one(rt, out, &sp, &vals[ai++], why, whylen);
		if (err)
			return err;
	}
	return 0;
}
