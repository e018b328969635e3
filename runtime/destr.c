/*
 * The destructive actions the consumer performs: system() runs its
 * formatted command with /bin/sh and copies what it prints to the trace
 * output, in order with the rest; freopen() sends later output to a file
 * (appended) and freopen("") back to the original output; ftruncate()
 * empties the output file. The loader only runs objects with these
 * actions when destructive actions are allowed (-w).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rt.h"

/* The action's format with its arguments, as printf() would print it. */
static char *format(struct dcc_runtime *rt, const struct dcc_meta_action *a, const char *rec,
		    char *why, size_t whylen)
{
	struct rt_val stackvals[16], *vals = stackvals;
	char *text = NULL;
	size_t len = 0;
	FILE *m;
	int err;

	if (a->nargs > 16 && !(vals = calloc(a->nargs, sizeof(*vals))))
		return NULL;
	for (uint32_t i = 0; i < a->nargs; i++)
		rt_field_val(&rt->args[a->first_arg + i], rec, &vals[i]);
	m = open_memstream(&text, &len);
	if (m) {
		err = rt_printf_format(rt, m, rt_str(rt, a->fmt), vals, a->nargs, NULL, NULL, why,
				       whylen);
		fclose(m);
		if (err) {
			free(text);
			text = NULL;
		}
	}
	if (vals != stackvals)
		free(vals);
	return text;
}

static void run_system(struct dcc_runtime *rt, FILE *out, const char *cmd)
{
	char buf[4096];
	FILE *p;
	ssize_t n;

	/* what was printed before the command comes before its output */
	fflush(out);
	fflush(rt->err);
	p = popen(cmd, "re");
	if (!p) {
		rt_error(rt, "failed to run system(\"%s\"): %s", cmd, strerror(errno));
		return;
	}
	while ((n = read(fileno(p), buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		fwrite(buf, 1, (size_t)n, out);
	}
	pclose(p);
}

static void do_freopen(struct dcc_runtime *rt, const char *path)
{
	FILE *f;

	if (!rt->out_orig)
		rt->out_orig = rt->out;
	if (!*path) {
		f = rt->out_orig;
	} else if (!(f = fopen(path, "ae"))) {
		rt_error(rt, "failed to freopen() to '%s': %s", path, strerror(errno));
		return;
	}
	fflush(rt->out);
	if (rt->out != rt->out_orig)
		fclose(rt->out);
	rt->out = f;
}

static void do_ftruncate(FILE *out)
{
	int fd;

	fflush(out);
	fd = fileno(out);
	if (fd >= 0 && ftruncate(fd, 0) == 0)
		fseeko(out, 0, SEEK_SET);
}

void rt_destr_action(struct dcc_runtime *rt, FILE *out, const struct dcc_meta_clause *c,
		     uint32_t ai, const char *rec)
{
	const struct dcc_meta_action *a = &rt->actions[ai];
	char why[128] = "", *text;

	if (a->kind == DCC_ACT_FTRUNCATE) {
		do_ftruncate(out);
		return;
	}
	text = format(rt, a, rec, why, sizeof(why));
	if (!text) {
		if (!rt->action_warned[ai])
			rt_error(rt, "%s in %s: %s", a->kind == DCC_ACT_SYSTEM ? "system" : "freopen",
				 rt_str(rt, c->loc), *why ? why : strerror(ENOMEM));
		rt->action_warned[ai] = 1;
		return;
	}
	if (a->kind == DCC_ACT_SYSTEM)
		run_system(rt, out, text);
	else
		do_freopen(rt, text);
	free(text);
}

void rt_destr_free(struct dcc_runtime *rt)
{
	if (rt->out_orig && rt->out != rt->out_orig) {
		fclose(rt->out);
		rt->out = rt->out_orig;
	}
}
