/*
 * Command-line options shared by dtrun and `dcc run` (dtrace's -q -o -c -p -x
 * -w -v), and the parsers of option values (sizes, rates) the loader needs.
 */
#include "loader.h"
#include "internal.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

enum opt_type { OT_BOOL, OT_SIZE, OT_RATE, OT_INT, OT_STR };

/* D-LANGUAGE.md §15: every option a script may set with -x or a pragma. */
static const struct {
	const char *name;
	enum opt_type type;
} known_opts[] = {
	{ "bufsize", OT_SIZE }, { "bufpolicy", OT_STR }, { "bufresize", OT_STR },
	{ "aggsize", OT_SIZE }, { "aggrate", OT_RATE }, { "switchrate", OT_RATE },
	{ "statusrate", OT_RATE }, { "cleanrate", OT_RATE }, { "dynvarsize", OT_SIZE },
	{ "strsize", OT_SIZE }, { "nspec", OT_INT }, { "specsize", OT_SIZE },
	{ "stackframes", OT_INT }, { "ustackframes", OT_INT }, { "jstackframes", OT_INT },
	{ "jstackstrsize", OT_SIZE }, { "stackindent", OT_INT }, { "quiet", OT_BOOL },
	{ "flowindent", OT_BOOL }, { "rawbytes", OT_BOOL }, { "destructive", OT_BOOL },
	{ "defaultargs", OT_BOOL }, { "zdefs", OT_BOOL }, { "aggsortkey", OT_BOOL },
	{ "aggsortkeypos", OT_INT }, { "aggsortpos", OT_INT }, { "aggsortrev", OT_BOOL },
	{ "aggpercpu", OT_BOOL }, { "aggpack", OT_BOOL }, { "agghist", OT_BOOL },
	{ "aggzoom", OT_BOOL }, { "temporal", OT_BOOL }, { "cpu", OT_INT },
	{ "noresolve", OT_BOOL }, { "version", OT_STR },
	/* compiler options, meaningful to `dcc run` */
	{ "cpp", OT_BOOL }, { "cpppath", OT_STR }, { "define", OT_STR }, { "undef", OT_STR },
	{ "incdir", OT_STR }, { "libdir", OT_STR }, { "nolibs", OT_BOOL },
	{ "errtags", OT_BOOL }, { "droptags", OT_BOOL }, { "evaltime", OT_STR },
	{ "knodefs", OT_BOOL }, { "unodefs", OT_BOOL }, { "late", OT_STR },
	{ "verbose", OT_BOOL }, { "strip", OT_BOOL },
	/* dcc extensions */
	{ "oformat", OT_STR }, { "tracefmt", OT_STR }, { "json", OT_BOOL }, { "encoding", OT_STR },
};

int opt_parse_size(const char *s, uint64_t *bytes)
{
	char *end;
	uint64_t v, mul = 1;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno)
		return -EINVAL;
	switch (tolower((unsigned char)*end)) {
	case 0: break;
	case 'k': mul = 1ULL << 10; end++; break;
	case 'm': mul = 1ULL << 20; end++; break;
	case 'g': mul = 1ULL << 30; end++; break;
	case 't': mul = 1ULL << 40; end++; break;
	default: return -EINVAL;
	}
	if (*end || (v && mul > UINT64_MAX / v))
		return -EINVAL;
	*bytes = v * mul;
	return 0;
}

int opt_parse_rate(const char *s, uint64_t *ns)
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
	char *end;
	uint64_t v;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcasecmp(units[i].name, end))
			continue;
		if (!units[i].mul) {
			*ns = v ? 1000000000ULL / v : 0;
		} else {
			if (v && units[i].mul > UINT64_MAX / v)
				return -EINVAL;
			*ns = v * units[i].mul;
		}
		return 0;
	}
	return -EINVAL;
}

uint32_t loader_ringbuf_size(uint64_t bytes)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), n = page;

	while (n < bytes && n < (1ULL << 31))
		n <<= 1;
	return (uint32_t)n;
}

int opt_check(const char *name, const char *value, const char **why)
{
	uint64_t u;
	char *end;

	for (size_t i = 0; i < sizeof(known_opts) / sizeof(known_opts[0]); i++) {
		if (strcmp(known_opts[i].name, name))
			continue;
		*why = "Invalid value for specified option";
		switch (known_opts[i].type) {
		case OT_BOOL:
			return value ? -EINVAL : 0;
		case OT_SIZE:
			return opt_parse_size(value, &u) ? -EINVAL : 0;
		case OT_RATE:
			return opt_parse_rate(value, &u) ? -EINVAL : 0;
		case OT_INT:
			if (!value || !*value)
				return -EINVAL;
			errno = 0;
			strtoll(value, &end, 0);
			return errno || *end ? -EINVAL : 0;
		case OT_STR:
			return value ? 0 : -EINVAL;
		}
	}
	*why = "Invalid option name";
	return -EINVAL;
}

void loader_usage(FILE *f, const struct loader_opts *opts)
{
	if (opts->usage) {
		fputs(opts->usage, f);
		return;
	}
	fprintf(f,
		"Usage: %s [-hqvw] [-c CMD | -p PID] [-o FILE] [-x OPT[=VAL]]... OBJ.bpf.o\n"
		"\n"
		"Run a dcc object: attach its probes, run BEGIN, print what it records,\n"
		"run END on exit(), ^C or the end of the traced process.\n"
		"\n"
		"  -c CMD         run CMD and trace until it exits ($target is its pid)\n"
		"  -p PID         trace until process PID exits ($target is PID)\n"
		"  -o FILE        append the trace output to FILE\n"
		"  -q             quiet: only what the script prints\n"
		"  -w             allow destructive actions\n"
		"  -x OPT[=VAL]   set an option (bufsize=4m, switchrate=10hz, quiet...)\n"
		"  -v             show libbpf's messages and timings\n"
		"  -h             show this help\n",
		opts->progname ? opts->progname : "dtrun");
}

static int bad_usage(const struct loader_opts *opts, const char *fmt, int c, const char *s)
{
	const char *prog = opts->progname ? opts->progname : "dtrun";

	fprintf(stderr, "%s: ", prog);
	if (s)
		fprintf(stderr, fmt, s);
	else
		fprintf(stderr, fmt, c);
	fputc('\n', stderr);
	loader_usage(stderr, opts);
	return -1;
}

int loader_parse_opts(int argc, char **argv, struct loader_opts *opts, const char *extra_optstring,
		      int (*extra)(int opt, const char *arg, void *ctx), void *ctx)
{
	char optstring[128];
	const char **xopts = (const char **)opts->xopts;
	int nx = opts->nxopts, c;

	if (!opts->progname)
		opts->progname = "dtrun";
	snprintf(optstring, sizeof(optstring), ":hqvwc:o:p:x:%s",
		 extra_optstring ? extra_optstring : "");
	optind = 1;
	opterr = 0;
	while ((c = getopt(argc, argv, optstring)) != -1) {
		switch (c) {
		case 'h':
			loader_usage(stdout, opts);
			return -2;
		case 'q':
			opts->quiet = true;
			break;
		case 'v':
			opts->verbose = true;
			break;
		case 'w':
			opts->destructive = true;
			break;
		case 'o':
			opts->out_path = optarg;
			break;
		case 'c':
		case 'p': {
			char *end;
			long pid;

			if (opts->cmd || opts->pid)
				return bad_usage(opts, "only one -c or -p may be given", 0, NULL);
			if (c == 'c') {
				if (!*optarg)
					return bad_usage(opts, "-c needs a command", 0, NULL);
				opts->cmd = optarg;
				break;
			}
			errno = 0;
			pid = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || pid <= 0 || pid > INT_MAX)
				return bad_usage(opts, "invalid process ID '%s'", 0, optarg);
			opts->pid = (pid_t)pid;
			break;
		}
		case 'x': {
			char name[64];
			const char *eq = strchr(optarg, '='), *why;
			size_t len = eq ? (size_t)(eq - optarg) : strlen(optarg);
			const char **grown;

			if (len >= sizeof(name))
				len = sizeof(name) - 1;
			memcpy(name, optarg, len);
			name[len] = 0;
			if (opt_check(name, eq ? eq + 1 : NULL, &why)) {
				fprintf(stderr, "%s: failed to set -x %s: %s\n", opts->progname,
					optarg, why);
				return -1;
			}
			grown = realloc(xopts, (nx + 1) * sizeof(*xopts));
			if (!grown) {
				fprintf(stderr, "%s: out of memory\n", opts->progname);
				return -1;
			}
			xopts = grown;
			xopts[nx++] = optarg;
			opts->xopts = xopts;
			opts->nxopts = nx;
			break;
		}
		case ':':
			return bad_usage(opts, "option requires an argument -- '%c'", optopt, NULL);
		case '?':
			return bad_usage(opts, "invalid option -- '%c'", optopt, NULL);
		default:
			if (!extra || extra(c, optarg, ctx)) {
				loader_usage(stderr, opts);
				return -1;
			}
			break;
		}
	}
	return optind;
}
