/*
 * Command-line options shared by dtrun and `dcc run` (dtrace's -q -o -c -p -x
 * -w -v); option names and values are checked with headers/dcc/abi_opt.h.
 */
#include "loader.h"
#include "internal.h"

#include <errno.h>
#include <stdarg.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

uint32_t loader_ringbuf_size(uint64_t bytes)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), n = page;

	while (n < bytes && n < LOADER_RINGBUF_MAX)
		n <<= 1;
	return (uint32_t)n;
}

int loader_opt_check(const char *name, const char *value, const char **why)
{
	const struct abi_opt *o = abi_opt_find(name);

	*why = o ? "Invalid value for specified option" : "Invalid option name";
	return o ? abi_opt_check(o, value) : -EINVAL;
}

void loader_usage(FILE *f, const struct loader_opts *opts)
{
	if (opts->usage) {
		fputs(opts->usage, f);
		return;
	}
	fprintf(f,
		"Usage: %s [-hqvw] [-c CMD | -p PID] [-o FILE] [-x OPT[=VAL]]...\n"
		"       [--metrics [ADDR:]PORT] [--allow-writable] OBJ.bpf.o\n"
		"       %s --info[=json] OBJ.bpf.o | --help | --version\n"
		"\n"
		"Run a dcc object: attach its probes, run BEGIN, print what it records,\n"
		"run END on exit(), ^C or the end of the traced process.\n"
		"\n"
		"  -c CMD         run CMD and trace until it exits ($target is its pid)\n"
		"  -p PID         trace until process PID exits ($target is PID)\n"
		"  -o FILE        append the trace output to FILE (reopened on SIGHUP)\n"
		"  -q             quiet: only what the script prints\n"
		"  -w             allow destructive actions\n"
		"  -x OPT[=VAL]   set an option (bufsize=4m, switchrate=10hz, quiet...)\n"
		"  -v             show libbpf's messages and timings\n"
		"  -V             print the version of D implemented (Sun D 2.0), as dtrace -V\n"
		"  -h, --help     show this help\n"
		"  --metrics [ADDR:]PORT\n"
		"                 serve the aggregations to Prometheus at /metrics while\n"
		"                 running (-x metrics_labels=NAME,... names the keys)\n"
		"  --info         print what OBJ holds and needs (probes, programs, maps,\n"
		"                 options, helpers, BTF) without loading it; --info=json\n"
		"                 or --info -f json: as one JSON object\n"
		"  --allow-writable\n"
		"                 run OBJ even if users other than its owner (root or\n"
		"                 you) may write it; refused otherwise\n"
		"  --version      print dtrun's version\n"
		"\n"
		"When this kernel refuses the object, dtrun names the program type or\n"
		"helper it lacks.\n",
		opts->progname ? opts->progname : "dtrun", opts->progname ? opts->progname : "dtrun");
}

__attribute__((format(printf, 2, 3)))
static int bad_usage(const struct loader_opts *opts, const char *fmt, ...)
{
	const char *prog = opts->progname ? opts->progname : "dtrun";
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	loader_usage(stderr, opts);
	return -1;
}

/* -h: the usage text; -V, as dtrace -V: the version of D implemented. Both
 * on stdout, and the caller exits 0 (-2). */
static int help_or_version(const struct loader_opts *opts, int c)
{
	if (c == 'h')
		loader_usage(stdout, opts);
	else
		printf("%s: Sun D 2.0\n", opts->progname);
	return -2;
}

int loader_parse_opts(int argc, char **argv, struct loader_opts *opts, const char *extra_optstring,
		      int (*extra)(int opt, const char *arg, void *ctx), void *ctx)
{
	enum { OPT_METRICS = 0x100, OPT_ALLOW_WRITABLE };
	static const struct option longopts[] = {
		{ "metrics", required_argument, NULL, OPT_METRICS },
		{ "allow-writable", no_argument, NULL, OPT_ALLOW_WRITABLE },
		{ NULL, 0, NULL, 0 },
	};
	char optstring[128];
	const char **xopts = (const char **)opts->xopts;
	int nx = opts->nxopts, c;

	if (!opts->progname)
		opts->progname = "dtrun";
	snprintf(optstring, sizeof(optstring), ":hqvVwc:o:p:x:%s",
		 extra_optstring ? extra_optstring : "");
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
		switch (c) {
		case OPT_METRICS:
			opts->metrics = optarg;
			break;
		case OPT_ALLOW_WRITABLE:
			opts->allow_writable = true;
			break;
		case 'h':
		case 'V':
			return help_or_version(opts, c);
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
				return bad_usage(opts, "only one -c or -p may be given");
			if (c == 'c') {
				if (!*optarg)
					return bad_usage(opts, "-c needs a command");
				opts->cmd = optarg;
				break;
			}
			errno = 0;
			pid = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || pid <= 0 || pid > INT_MAX)
				return bad_usage(opts, "invalid process ID '%s'", optarg);
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
			if (loader_opt_check(name, eq ? eq + 1 : NULL, &why)) {
				fprintf(stderr, "%s: failed to set -x %s: %s\n", opts->progname,
					optarg, why);
				return -3;
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
			if (optopt == OPT_METRICS)
				return bad_usage(opts, "option '--metrics' requires an argument");
			return bad_usage(opts, "option requires an argument -- '%c'", optopt);
		case '?':
			if (!optopt)
				return bad_usage(opts, "unrecognized option '%s'", argv[optind - 1]);
			/* dtrace's own options that this tool lacks (anonymous
			 * tracing, -G's ELF output, probe listing by part...): not a
			 * usage error (2) but a request it cannot do (1), as dtrace
			 * would fail on one it could not carry out */
			if (strchr("aABfGiLmPSX", optopt)) {
				fprintf(stderr, "%s: dtrace's option -%c is not supported\n",
					opts->progname, optopt);
				return -3;
			}
			return bad_usage(opts, "invalid option -- '%c'", optopt);
		default:
			if (!extra)
				return bad_usage(opts, "invalid option -- '%c'", c);
			switch (extra(c, optarg, ctx)) {
			case 0:
				break;
			case 1: /* a bad value, reported: dtrace exits 1 */
				return -3;
			default:
				loader_usage(stderr, opts);
				return -1;
			}
			break;
		}
	}
	return optind;
}
