/*
 * Options set by `#pragma D option` and by -x on dcc's command line (the
 * latter first, as dtrace applies its command line before the script): the
 * name must be one D knows and the value suit it (headers/dcc/abi_opt.h, the
 * table the loader and the runtime check with too), the compiler's own
 * options take effect here (strsize, defaultargs, zdefs), the runtime's are
 * recorded for the object's metadata, and options dcc cannot honour are
 * refused rather than ignored.
 */
#include <stdlib.h>
#include <string.h>

#include <dcc/abi_opt.h>
#include "arena.h"
#include "diag.h"
#include "sema.h"


/* Why the version option refuses value, or NULL: it must name a version of
 * D that DTrace defined, "M[.m[.u]]". dcc accepts each and compiles the
 * language it knows; DTrace would also hide what later versions added. */
static const char *bad_version(const char *value)
{
	static const char *const known[] = {
		"1.0", "1.1", "1.2", "1.2.1", "1.2.2", "1.3", "1.4", "1.4.1", "1.5",
		"1.6", "1.6.1", "1.6.2", "1.6.3", "1.6.4", "2.0", "2.0.1",
	};
	unsigned v[3] = { 0, 0, 0 }, k = 0;

	if (!value)
		return "Invalid value for specified option";
	for (const char *p = value; *p; p++) {
		if (*p >= '0' && *p <= '9') {
			v[k] = v[k] * 10 + (unsigned)(*p - '0');
			if (v[k] > 0xfff)
				return "Version is not properly formatted or is too large";
		} else if (*p != '.' || ++k > 2) {
			return "Version is not properly formatted or is too large";
		}
	}
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		unsigned w[3] = { 0, 0, 0 };
		char *end;

		w[0] = (unsigned)strtoul(known[i], &end, 10);
		w[1] = (unsigned)strtoul(end + 1, &end, 10);
		if (*end)
			w[2] = (unsigned)strtoul(end + 1, NULL, 10);
		if (v[0] == w[0] && v[1] == w[1] && v[2] == w[2])
			return NULL;
	}
	return "Requested version is not supported by compiler";
}

/* A size or count option's value (checked when set) or its default. */
uint64_t sema_opt_value(const struct sema *s, const char *name)
{
	const struct abi_opt *o = abi_opt_find(name);
	const char *v = sema_option(s, name);
	uint64_t n = 0;
	if (o->type == ABI_OPT_COUNT)
		abi_opt_parse_count(v ? v : o->def, &n);
	else
		abi_opt_parse_size(v ? v : o->def, &n);
	return n;
}

/* The maxframes option: the most frames a stack, stackdepth or ustackdepth
 * takes. */
unsigned sema_maxframes(const struct sema *s)
{
	uint64_t n = sema_opt_value(s, "maxframes");
	return n > 127 ? 127 : n ? (unsigned)n : 1;
}

/* The scratchsize option, rounded up to 8 as DTrace does, or 0 when unset:
 * the most bytes a clause's alloca() calls may take together. */
uint64_t sema_scratchsize(const struct sema *s)
{
	uint64_t n = sema_opt_value(s, "scratchsize");
	return (n + 7) & ~7ull;
}

/* s->sizes from the settings recorded so far (the last one of a name wins). */
static void resolve_sizes(struct sema *s)
{
	s->sizes.bufsize = sema_opt_value(s, "bufsize");
	s->sizes.dynvarsize = sema_opt_value(s, "dynvarsize");
	s->sizes.aggsize = sema_opt_value(s, "aggsize");
	s->sizes.specsize = sema_opt_value(s, "specsize");
	s->sizes.nspec = sema_opt_value(s, "nspec");
}

/* Check one option and record it; what=NULL for a pragma at loc, else the
 * "-x" it came from. Returns 0 or -1 after reporting. */
static int set_option(struct sema *s, struct loc loc, const char *what, const char *name,
		      const char *value)
{
	const struct abi_opt *o = abi_opt_find(name);
	const char *why;

	if (!o) {
		if (what)
			return diag_fatal(s->dg, "failed to set %s %s: Invalid option name", what,
					  name);
		return diag_error(s->dg, loc, "failed to set option '%s': Invalid option name",
				  name);
	}
	if ((why = o->refused)) {
		const char *eq = value ? "=" : "", *v = value ? value : "";

		if (what)
			return diag_fatal(s->dg, "option %s%s%s is not supported: %s", name, eq, v,
					  why);
		return diag_error(s->dg, loc, "option %s%s%s is not supported: %s", name, eq, v,
				  why);
	}
	if (!what && !strcmp(name, "nolibs"))
		/* the library is read before the script */
		return diag_error(s->dg, loc, "option nolibs must be set on the command line "
				  "(-x nolibs)");
	if (abi_opt_check(o, value)) {
		const char *eq = value ? "=" : "", *v = value ? value : "";

		if (what)
			return diag_fatal(s->dg, "failed to set %s %s%s%s: Invalid value for "
					  "specified option", what, name, eq, v);
		return diag_error(s->dg, loc, "failed to set option '%s%s%s': Invalid value for "
				  "specified option", name, eq, v);
	}
	if (!strcmp(name, "version") && (why = bad_version(value))) {
		if (what)
			return diag_fatal(s->dg, "failed to set %s %s: %s", what, name, why);
		return diag_error(s->dg, loc, "failed to set option 'version=%s': %s", value, why);
	}
	if (!strcmp(name, "tree")) {
		uint64_t v = 0;
		abi_opt_parse_count(value, &v);
		if (!v) {
			if (what)
				return diag_fatal(s->dg, "failed to set %s tree%s%s: Invalid value "
						  "for specified option", what, value ? "=" : "",
						  value ? value : "");
			return diag_error(s->dg, loc, "failed to set option 'tree': the value must be "
					  "a number above 0");
		}
	}
	if (!strcmp(name, "strsize")) {
		uint64_t v;
		abi_opt_parse_size(value, &v);
		if (v < 2 || v > 4096) {
			if (what)
				return diag_fatal(s->dg, "strsize must be between 2 and 4096");
			return diag_error(s->dg, loc, "strsize must be between 2 and 4096");
		}
		sema_set_strsize(s, (unsigned)v);
	}
	uint64_t size;
	if (!strcmp(name, "bufsize") && !abi_opt_parse_size(value, &size) && !size) {
		if (what)
			return diag_fatal(s->dg, "bufsize must be greater than 0");
		return diag_error(s->dg, loc, "bufsize must be greater than 0");
	}
	if (!strcmp(name, "defaultargs"))
		s->opts.defaultargs = true;
	if (!strcmp(name, "zdefs"))
		s->opts.zdefs = true;
	if (!strcmp(name, "argref"))
		abi_opt_parse_bool(value, &s->opts.argref);
	if (s->nopts == s->cap_opts) {
		s->cap_opts = s->cap_opts ? 2 * s->cap_opts : 8;
		s->opt_names = realloc(s->opt_names, s->cap_opts * sizeof(char *));
		s->opt_values = realloc(s->opt_values, s->cap_opts * sizeof(char *));
	}
	s->opt_names[s->nopts] = name;
	s->opt_values[s->nopts++] = value;
	resolve_sizes(s);
	return 0;
}

int sema_pragma_option(struct sema *s, struct node *o)
{
	return set_option(s, o->loc, NULL, o->name, o->str);
}

/* DTrace for Linux keeps strsize characters in a string and records it
 * with its NUL, strsize + 1 bytes: dcc's buffers hold both, rounded up to
 * 8 for the word-wise copies and compares. */
void sema_set_strsize(struct sema *s, unsigned strsize)
{
	s->strmax = strsize;
	s->strsize = (strsize + 1 + 7) & ~7u;
	s->strmember = (strsize + 7) & ~7u;
}

int sema_cli_options(struct sema *s)
{
	int rc = 0;

	resolve_sizes(s); /* the defaults, if nothing is set */
	for (int i = 0; i < s->opts.nxopts; i++) {
		const char *x = s->opts.xopts[i], *eq = strchr(x, '=');
		const char *name = eq ? arena_strndup(s->ar, x, (size_t)(eq - x)) : x;

		if (set_option(s, (struct loc){ 0 }, "-x", name, eq ? eq + 1 : NULL))
			rc = -1;
	}
	return rc;
}

const char *sema_option(const struct sema *s, const char *name)
{
	const char *v = NULL;
	for (int i = 0; i < s->nopts; i++)
		if (!strcmp(s->opt_names[i], name))
			v = s->opt_values[i] ? s->opt_values[i] : "";
	return v;
}
