/*
 * Options set by `#pragma D option` and by -x on dcc's command line (the
 * latter first, as dtrace applies its command line before the script): the
 * name must be one D knows, the compiler's own options take effect here
 * (strsize, defaultargs, zdefs), the runtime's are recorded for the object's
 * metadata, and options dcc cannot honour are refused rather than ignored.
 */
#include <stdlib.h>
#include <string.h>

#include <dcc/abi.h>
#include "arena.h"
#include "diag.h"
#include "sema.h"

/* Options dcc does not implement, and why. */
static const struct {
	const char *name;
	const char *why;
} refused[] = {
	{ "cpu", "dcc traces every CPU" },
	{ "cpp", "dcc does not run the C preprocessor" },
	{ "cpppath", "dcc does not run the C preprocessor" },
	{ "define", "dcc does not run the C preprocessor" },
	{ "undef", "dcc does not run the C preprocessor" },
	{ "incdir", "dcc does not run the C preprocessor" },
	{ "libdir", "dcc's D library is built in (headers/d)" },
	{ "knodefs", "every identifier must be defined" },
	{ "unodefs", "every identifier must be defined" },
	{ "errtags", "dcc's diagnostics carry no tags" },
	{ "droptags", "dcc's drop reports carry no tags" },
};

static bool known(const char *name)
{
	static const char *const names[] = { DCC_OPTION_NAMES };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

/* The reason dcc refuses name=value, or NULL. */
static const char *refusal(const char *name, const char *value)
{
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (!strcmp(refused[i].name, name))
			return refused[i].why;
	if (!strcmp(name, "bufpolicy") && value && strcmp(value, "switch"))
		return "dcc's buffer is drained at switchrate and drops what does not fit "
		       "(bufpolicy=switch)";
	return NULL;
}

/* A size option's value: a number with an optional k, m or g suffix;
 * dflt if unset or set without a value. */
static uint64_t size_value(const struct sema *s, const char *name, uint64_t dflt)
{
	const char *v = sema_option(s, name);
	if (!v || !*v)
		return dflt;
	char *end;
	uint64_t n = strtoull(v, &end, 0);
	switch (*end) {
	case 'k': case 'K': n <<= 10; break;
	case 'm': case 'M': n <<= 20; break;
	case 'g': case 'G': n <<= 30; break;
	}
	return n;
}

/* s->sizes from the settings recorded so far (the last one of a name wins). */
static void resolve_sizes(struct sema *s)
{
	s->sizes.bufsize = size_value(s, "bufsize", 4 << 20);
	s->sizes.dynvarsize = size_value(s, "dynvarsize", 1 << 20);
	s->sizes.aggsize = size_value(s, "aggsize", 4 << 20);
	s->sizes.specsize = size_value(s, "specsize", 32 << 10);
	s->sizes.nspec = size_value(s, "nspec", 1);
}

/* Check one option and record it; what=NULL for a pragma at loc, else the
 * "-x" it came from. Returns 0 or -1 after reporting. */
static int set_option(struct sema *s, struct loc loc, const char *what, const char *name,
		      const char *value)
{
	const char *why;

	if (!known(name)) {
		if (what)
			return diag_fatal(s->dg, "failed to set %s %s: Invalid option name", what,
					  name);
		return diag_error(s->dg, loc, "failed to set option '%s': Invalid option name",
				  name);
	}
	if ((why = refusal(name, value))) {
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
	if (!strcmp(name, "strsize") && value) {
		long v = strtol(value, NULL, 0);
		if (v < 8 || v > 4096) {
			if (what)
				return diag_fatal(s->dg, "strsize must be between 8 and 4096");
			return diag_error(s->dg, loc, "strsize must be between 8 and 4096");
		}
		s->strsize = (unsigned)(v + 7) & ~7u;
	}
	if (!strcmp(name, "defaultargs"))
		s->opts.defaultargs = true;
	if (!strcmp(name, "zdefs"))
		s->opts.zdefs = true;
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
