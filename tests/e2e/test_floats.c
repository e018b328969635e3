/*
 * Floating-point values through the kernel: the floats trigger writes a
 * struct of doubles, floats and long doubles (triggers/floats.h); a
 * syscall::write:entry clause copies it in and prints every value with
 * every conversion, flag, width, precision and '*', traces it, and moves it
 * through variables of every kind. The expected text is C's own printf of
 * the same values with the same specs (a long double's with L), so the test
 * holds byte for byte whatever libc prints for nan or -0.
 */
#include "e2e/e2e.h"
#include "e2e/triggers/floats.h"

/* A conversion as the D script writes it, and the ints its '*'s take. */
static const struct spec {
	const char *fmt;
	int nstars, star[2];
} specs[] = {
#define S(f) { f, 0, { 0, 0 } }
	S("%f"), S("%e"), S("%E"), S("%g"), S("%G"), S("%.0f"), S("%.3e"), S("%#.0e"), S("%#g"),
	S("%+f"), S("% e"), S("%-14.4g"), S("%014.5E"), S("%+-#12.1f"), S("%0+22.15e"),
	S("%.20g"), S("%lf"), S("%Le"),
#undef S
	{ "%*.*f", 2, { 12, 3 } },
	{ "%-*e", 1, { 16, 0 } }, { "%.*G", 1, { 3, 0 } }, { "%*g", 1, { -11, 0 } },
	{ "%0*.*e", 2, { 18, 4 } },
};
#define NSPECS (int)(sizeof(specs) / sizeof(specs[0]))

static const struct float_vals vals = FLOAT_VALS_INIT;

/* Every value of the struct: its D expression, size and value. */
struct val {
	char expr[32];
	uint32_t size;
	long double v;
};

static int all_vals(struct val *out)
{
	int n = 0;

	for (int i = 0; i < FLOAT_ND; i++, n++) {
		snprintf(out[n].expr, sizeof(out[n].expr), "this->p->d[%d]", i);
		out[n].size = 8;
		out[n].v = vals.d[i];
	}
	for (int i = 0; i < FLOAT_NF; i++, n++) {
		snprintf(out[n].expr, sizeof(out[n].expr), "this->p->f[%d]", i);
		out[n].size = 4;
		out[n].v = vals.f[i];
	}
	for (int i = 0; i < FLOAT_NLD; i++, n++) {
		snprintf(out[n].expr, sizeof(out[n].expr), "this->p->ld[%d]", i);
		out[n].size = 16;
		out[n].v = vals.ld[i];
	}
	return n;
}

/* C's printf of v with the D spec: size prefixes dropped, L for 16 bytes. */
static void c_printf(FILE *o, const char *spec, const int *star, int nstars, uint32_t size,
		     long double v)
{
	char f[32];
	size_t k = 0, len = strlen(spec);

	for (size_t i = 0; i + 1 < len; i++)
		if (!strchr("hlLjzt", spec[i]))
			f[k++] = spec[i];
	if (size == 16)
		f[k++] = 'L';
	f[k++] = spec[len - 1];
	f[k] = '\0';
#define PRINT(...) (nstars == 2 ? fprintf(o, f, star[0], star[1], __VA_ARGS__)       \
		    : nstars == 1 ? fprintf(o, f, star[0], __VA_ARGS__) : fprintf(o, f, __VA_ARGS__))
	if (size == 16)
		PRINT(v);
	else
		PRINT((double)v);
#undef PRINT
}

/* The script and what it must print. */
static void script(char **d, char **expect)
{
	struct val v[FLOAT_ND + FLOAT_NF + FLOAT_NLD];
	int nv = all_vals(v);
	size_t dlen, elen;
	FILE *ds = open_memstream(d, &dlen), *es = open_memstream(expect, &elen);

	fprintf(ds, "#pragma D option quiet\n" FLOAT_VALS_D
		"struct pair { float f; long double ld; };\n"
		"double gd;\nlong double gld;\nthis struct pair s;\n"
		"syscall::write:entry /pid == $target && arg2 == sizeof(struct float_vals)/\n"
		"{\n\tthis->p = (struct float_vals *)copyin(arg1, sizeof(struct float_vals));\n");
	/* every value with every spec, one line each */
	for (int i = 0; i < nv; i++) {
		fputs("\tprintf(\"", ds);
		for (int s = 0; s < NSPECS; s++)
			fprintf(ds, "%s|", specs[s].fmt);
		fputs("\\n\"", ds);
		for (int s = 0; s < NSPECS; s++) {
			for (int k = 0; k < specs[s].nstars; k++)
				fprintf(ds, ", %d", specs[s].star[k]);
			fprintf(ds, ", %s", v[i].expr);
			c_printf(es, specs[s].fmt, specs[s].star, specs[s].nstars, v[i].size, v[i].v);
			fputc('|', es);
		}
		fputs(");\n", ds);
		fputc('\n', es);
	}
	/* trace(): %g of each, quiet */
	for (int i = 0; i < nv; i++) {
		fprintf(ds, "\ttrace(%s);\n\tprintf(\"|\");\n", v[i].expr);
		c_printf(es, "%g", NULL, 0, v[i].size, v[i].v);
		fputc('|', es);
	}
	fputs("\tprintf(\"\\n\");\n", ds);
	fputc('\n', es);
	/* through a copied struct, globals, thread-locals, associative arrays,
	 * clause-locals and members of a struct variable: the same bits */
	fputs("\tthis->v = *this->p;\n"
	      "\tgd = this->v.d[0];\n"
	      "\tgld = this->v.ld[0];\n"
	      "\tself->f = this->v.f[1];\n"
	      "\tself->ld = this->p->ld[1];\n"
	      "\ta[pid, \"x\"] = this->v.d[5];\n"
	      "\tla[pid] = gld;\n"
	      "\tthis->s.f = self->f;\n"
	      "\tthis->s.ld = la[pid];\n"
	      "\tthis->t = this->s;\n"
	      "\tprintf(\"%.17g|%.21Lg|%.9g|%Lg|%.17g|%.21Lg|%.9g|%.21Lg|%f\\n\", gd, gld, "
	      "self->f, self->ld, a[pid, \"x\"], la[pid], this->t.f, this->t.ld, a[0, \"y\"]);\n"
	      "}\n", ds);
	fprintf(es, "%.17g|%.21Lg|%.9g|%Lg|%.17g|%.21Lg|%.9g|%.21Lg|%f\n", vals.d[0], vals.ld[0],
		vals.f[1], vals.ld[1], vals.d[5], vals.ld[0], vals.f[1], vals.ld[0], 0.0);
	fputc('\n', es); /* the consumer's last line, as DTrace ends a trace */
	fclose(ds);
	fclose(es);
	e2e_keep(*d);
	e2e_keep(*expect);
}

E2E_TEST(floats, every_conversion_of_copied_in_values_is_c_printf)
{
	char *d, *expect;
	struct run_result r;

	script(&d, &expect);
	const char *obj = e2e_build("floats", d);
	e2e_run(&r, DTRUN_BIN, "-c", e2e_trigger("floats"), obj, NULL);
	e2e_expect(&r, 0, expect);
	run_result_free(&r);
}

E2E_TEST(floats, traced_values_are_json_numbers)
{
	char *d, *expect;
	struct run_result r;

	script(&d, &expect);
	const char *obj = e2e_build("floats", d);
	e2e_run(&r, DTRUN_BIN, "-x", "oformat=json", "-c", e2e_trigger("floats"), obj, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "{\"trace\":3.14159},{\"printf\":\"|\"},{\"trace\":-0.0025},"),
		  "%s", r.out);
	cr_assert(strstr(r.out, "{\"trace\":\"Infinity\"},{\"printf\":\"|\"},"
			 "{\"trace\":\"-Infinity\"},{\"printf\":\"|\"},{\"trace\":\"NaN\"}"), "%s",
		  r.out);
	cr_assert(strstr(r.out, "{\"trace\":1.5},{\"printf\":\"|\"},{\"trace\":-0.1},"), "%s",
		  r.out);
	cr_assert(strstr(r.out, "{\"trace\":2.7182818284590452354},"), "%s", r.out);
	run_result_free(&r);
}
