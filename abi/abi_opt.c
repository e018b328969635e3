/*
 * Option names to their types, defaults and value parsers (abi_opt.h): the
 * one list of D's options and the one parser of sizes and rates, shared by
 * the compiler, the loader and the runtime.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <dcc/abi_opt.h>

#define C ABI_OPT_COMPILE
#define NOCPP "the C preprocessor runs before the script is read: set it on the command line (-C, -D, -U, -I, -x define=...)"
#define NODEFS "every identifier must be defined"

static const struct abi_opt opts[] = {
	/* name, type, flags, default, enum values, why refused */
	{ "bufsize", ABI_OPT_SIZE, 0, "4m", NULL, NULL },
	{ "bufpolicy", ABI_OPT_ENUM, 0, "switch", "switch|fill|ring", NULL },
	{ "bufresize", ABI_OPT_ENUM, 0, "auto", "auto|manual", NULL },
	/* DTrace's consumer heap reserved up front; dcc's consumer grows its
	 * own as it goes, so the size is taken and has no effect */
	{ "preallocate", ABI_OPT_SIZE, 0, NULL, NULL, NULL },
	{ "aggsize", ABI_OPT_SIZE, C, "4m", NULL, NULL },
	{ "aggrate", ABI_OPT_RATE, 0, NULL, NULL, NULL },
	{ "switchrate", ABI_OPT_RATE, 0, "1hz", NULL, NULL },
	{ "statusrate", ABI_OPT_RATE, 0, "1hz", NULL, NULL },
	{ "cleanrate", ABI_OPT_RATE, 0, NULL, NULL, NULL },
	{ "dynvarsize", ABI_OPT_SIZE, C, "1m", NULL, NULL },
	{ "strsize", ABI_OPT_SIZE, C, "256", NULL, NULL },
	{ "nspec", ABI_OPT_COUNT, C, "1", NULL, NULL },
	{ "specsize", ABI_OPT_SIZE, C, "32k", NULL, NULL },
	{ "stackframes", ABI_OPT_COUNT, C, "20", NULL, NULL },
	/* DTrace for Linux takes 100 user frames by default (Solaris took 20);
	 * maxframes still caps it */
	{ "ustackframes", ABI_OPT_COUNT, C, "100", NULL, NULL },
	/* the most frames any stack takes (DTrace's default is the kernel's
	 * perf_event_max_stack, 127 unless changed) */
	{ "maxframes", ABI_OPT_COUNT, C, "127", NULL, NULL },
	/* the most bytes a clause's alloca() may take */
	{ "scratchsize", ABI_OPT_SIZE, C, NULL, NULL, NULL },
	{ "jstackframes", ABI_OPT_COUNT, C, NULL, NULL, NULL },
	{ "jstackstrsize", ABI_OPT_SIZE, C, NULL, NULL, NULL },
	{ "stackindent", ABI_OPT_COUNT, 0, "14", NULL, NULL },
	/* the most bytes of a value print() shows, the rest as "..." (none: all) */
	{ "printsize", ABI_OPT_SIZE, 0, NULL, NULL, NULL },
	{ "quiet", ABI_OPT_BOOL, 0, NULL, NULL, NULL },
	{ "flowindent", ABI_OPT_BOOL, 0, NULL, NULL, NULL },
	{ "rawbytes", ABI_OPT_BOOL, 0, NULL, NULL, NULL },
	{ "destructive", ABI_OPT_BOOL, 0, NULL, NULL, NULL },
	{ "defaultargs", ABI_OPT_BOOL, C, NULL, NULL, NULL },
	/* a macro argument given but never referenced is no error */
	{ "argref", ABI_OPT_BOOL, C, NULL, NULL, NULL },
	{ "zdefs", ABI_OPT_BOOL, C, NULL, NULL, NULL },
	{ "aggsortkey", ABI_OPT_BOOL, 0, NULL, NULL, NULL },
	{ "aggsortkeypos", ABI_OPT_COUNT, 0, NULL, NULL, NULL },
	{ "aggsortpos", ABI_OPT_COUNT, 0, NULL, NULL, NULL },
	{ "aggsortrev", ABI_OPT_BOOL, 0, NULL, NULL, NULL },
	{ "aggpercpu", ABI_OPT_BOOL, 0, NULL, NULL, NULL },
	{ "aggpack", ABI_OPT_BOOL, 0, NULL, NULL, NULL },
	{ "agghist", ABI_OPT_BOOL, 0, NULL, NULL, NULL },
	{ "aggzoom", ABI_OPT_BOOL, 0, NULL, NULL, NULL },
	{ "temporal", ABI_OPT_BOOL, 0, NULL, NULL, NULL },
	{ "cpu", ABI_OPT_INT, 0, NULL, NULL, "dcc traces every CPU" },
	{ "noresolve", ABI_OPT_BOOL, 0, NULL, NULL, NULL },
	/* the D version the script is written for: one DTrace defines (sema) */
	{ "version", ABI_OPT_STRING, C, NULL, NULL, NULL },
	/* the compiler's own, meaningful to `dcc run` */
	{ "cpp", ABI_OPT_BOOL, C, NULL, NULL, NOCPP },
	{ "cpppath", ABI_OPT_STRING, C, NULL, NULL, NOCPP },
	{ "define", ABI_OPT_STRING, C, NULL, NULL, NOCPP },
	{ "undef", ABI_OPT_STRING, C, NULL, NULL, NOCPP },
	{ "incdir", ABI_OPT_STRING, C, NULL, NULL, NOCPP },
	{ "stdc", ABI_OPT_ENUM, C, NULL, "a|c|s|t", NOCPP },
	{ "libdir", ABI_OPT_STRING, C, NULL, NULL, "dcc's D library is built in (headers/d)" },
	{ "nolibs", ABI_OPT_BOOL, C, NULL, NULL, NULL },
	{ "errtags", ABI_OPT_BOOL, C, NULL, NULL, "dcc's diagnostics carry no tags" },
	{ "droptags", ABI_OPT_BOOL, C, NULL, NULL, "dcc's drop reports carry no tags" },
	{ "evaltime", ABI_OPT_STRING, C, NULL, NULL, NULL },
	{ "knodefs", ABI_OPT_BOOL, C, NULL, NULL, NODEFS },
	{ "unodefs", ABI_OPT_BOOL, C, NULL, NULL, NODEFS },
	{ "late", ABI_OPT_STRING, C, NULL, NULL, NULL },
	{ "verbose", ABI_OPT_BOOL, C, NULL, NULL, NULL },
	{ "strip", ABI_OPT_BOOL, C, NULL, NULL, NULL },
	/* a debugging dump of the parse tree: dcc prints its own AST on stderr */
	{ "tree", ABI_OPT_COUNT, C, NULL, NULL, NULL },
	/* dcc's extensions */
	{ "oformat", ABI_OPT_ENUM, 0, "text", "json|text", NULL },
	{ "tracefmt", ABI_OPT_ENUM, 0, "linux", "classic|linux", NULL },
	{ "json", ABI_OPT_BOOL, 0, NULL, NULL, NULL },
	{ "encoding", ABI_OPT_ENUM, 0, NULL, "ascii|utf8", NULL },
	/* dtrun --metrics: label names of the key elements, "name,pid" */
	{ "metrics_labels", ABI_OPT_STRING, 0, NULL, NULL, NULL },
};

const struct abi_opt *abi_opt_find(const char *name)
{
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (!strcmp(opts[i].name, name))
			return &opts[i];
	return NULL;
}

const struct abi_opt *abi_opt_table(unsigned *n)
{
	*n = sizeof(opts) / sizeof(opts[0]);
	return opts;
}

/* The unsigned number s starts with (C syntax, as dtrace's strtoull(s, 0));
 * *end gets what follows. A sign or no digit at all is no number. */
static int number(const char *s, uint64_t *v, char **end)
{
	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, end, 0);
	return errno ? -EINVAL : 0;
}

static int scale(uint64_t v, uint64_t mul, uint64_t *out)
{
	if (v && mul > UINT64_MAX / v)
		return -EINVAL;
	*out = v * mul;
	return 0;
}

int abi_opt_parse_size(const char *s, uint64_t *bytes)
{
	static const char suffixes[] = "kmgt";
	const char *sfx;
	uint64_t v;
	char *end;

	if (number(s, &v, &end))
		return -EINVAL;
	if (!*end)
		return scale(v, 1, bytes);
	if (end[1] || !(sfx = strchr(suffixes, tolower((unsigned char)*end))))
		return -EINVAL;
	return scale(v, 1ULL << (10 * (sfx - suffixes + 1)), bytes);
}

int abi_opt_parse_rate(const char *s, uint64_t *ns)
{
	static const struct {
		const char *name;
		uint64_t mul; /* 0: hz */
	} units[] = {
		{ "", 1 }, { "ns", 1 }, { "nsec", 1 }, { "us", 1000 }, { "usec", 1000 },
		{ "ms", 1000000 }, { "msec", 1000000 }, { "s", 1000000000 },
		{ "sec", 1000000000 }, { "m", 60000000000ULL }, { "min", 60000000000ULL },
		{ "h", 3600000000000ULL }, { "hour", 3600000000000ULL },
		{ "d", 86400000000000ULL }, { "day", 86400000000000ULL }, { "hz", 0 },
	};
	uint64_t v;
	char *end;

	if (number(s, &v, &end))
		return -EINVAL;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcasecmp(units[i].name, end))
			continue;
		if (units[i].mul)
			return scale(v, units[i].mul, ns);
		*ns = v ? 1000000000ULL / v : 0;
		return 0;
	}
	return -EINVAL;
}

int abi_opt_parse_int(const char *s, int64_t *v)
{
	char *end;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	*v = strtoll(s, &end, 0);
	return errno || *end ? -EINVAL : 0;
}

int abi_opt_parse_count(const char *s, uint64_t *v)
{
	char *end;

	return number(s, v, &end) || *end ? -EINVAL : 0;
}

int abi_opt_parse_bool(const char *s, bool *on)
{
	static const char *const words[][2] = {
		{ "yes", "no" }, { "true", "false" }, { "on", "off" }, { "set", "unset" },
		{ "enable", "disable" }, { "enabled", "disabled" },
	};

	*on = true;
	if (!s || !*s)
		return 0;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if (!strcasecmp(s, words[i][0]) || !strcasecmp(s, words[i][1])) {
			*on = !strcasecmp(s, words[i][0]);
			return 0;
		}
	}
	return -EINVAL;
}

static int one_of(const char *values, const char *v)
{
	size_t n = strlen(v);

	for (const char *p = values; p; p = strchr(p, '|'), p = p ? p + 1 : NULL)
		if (!strncmp(p, v, n) && (p[n] == '|' || !p[n]))
			return 0;
	return -EINVAL;
}

int abi_opt_check(const struct abi_opt *o, const char *value)
{
	uint64_t u;
	int64_t i;
	bool on;

	switch (o->type) {
	case ABI_OPT_BOOL:
		return abi_opt_parse_bool(value, &on);
	case ABI_OPT_SIZE:
		return abi_opt_parse_size(value, &u);
	case ABI_OPT_RATE:
		return abi_opt_parse_rate(value, &u);
	case ABI_OPT_COUNT:
		return abi_opt_parse_count(value, &u);
	case ABI_OPT_INT:
		return abi_opt_parse_int(value, &i);
	case ABI_OPT_STRING:
		return value ? 0 : -EINVAL;
	case ABI_OPT_ENUM:
		return value ? one_of(o->values, value) : -EINVAL;
	}
	return -EINVAL;
}
