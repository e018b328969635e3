/*
 * Clang-style diagnostics: a struct loc becomes "name:line:col: error: msg",
 * the source line with tabs expanded, and a caret line with '~' under the
 * rest of the location's range.
 */
#include "diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct source {
	const char *name;
	const char *text;
	size_t len;
};

struct diag {
	FILE *out;
	struct source *srcs;
	uint32_t nsrcs;
	int errors;
	int warnings;
	bool muted;
};

void diag_mute(struct diag *dg, bool muted)
{
	dg->muted = muted;
}

bool diag_muted(const struct diag *dg)
{
	return dg->muted;
}

struct diag *diag_new(FILE *out)
{
	struct diag *dg = calloc(1, sizeof(*dg));
	if (!dg)
		abort();
	dg->out = out ? out : stderr;
	return dg;
}

void diag_free(struct diag *dg)
{
	if (!dg)
		return;
	fflush(dg->out);
	for (uint32_t i = 0; i < dg->nsrcs; i++)
		free((char *)dg->srcs[i].name);
	free(dg->srcs);
	free(dg);
}

uint32_t diag_add_source(struct diag *dg, const char *name, const char *text, size_t len)
{
	struct source *s = realloc(dg->srcs, (dg->nsrcs + 1) * sizeof(*s));
	if (!s)
		abort();
	dg->srcs = s;
	s[dg->nsrcs] = (struct source){ .name = strdup(name ? name : "<stdin>"),
					.text = text, .len = len };
	return dg->nsrcs++;
}

const char *diag_source_name(struct diag *dg, uint32_t file)
{
	return file < dg->nsrcs ? dg->srcs[file].name : "<unknown>";
}

/* The source line holding loc.off, with a caret and '~' under the range,
 * each built whole and written with one call (byte by byte, a long line
 * was as many locked calls: a third of the fuzzer's time on bad input). */
static void show_line(struct diag *dg, FILE *out, struct loc loc)
{
	if (loc.file >= dg->nsrcs)
		return;
	const struct source *s = &dg->srcs[loc.file];
	if (!s->text || loc.off > s->len)
		return;
	size_t ls = loc.off, le = loc.off;
	while (ls > 0 && s->text[ls - 1] != '\n')
		ls--;
	while (le < s->len && s->text[le] != '\n')
		le++;
	size_t end = loc.off + (loc.len > 1 ? loc.len : 1);
	if (end > le)
		end = le;

	char *line = malloc(2 * ((le - ls) * 8 + 2));
	if (!line)
		abort();
	char *caret = line + (le - ls) * 8 + 2;
	size_t ln = 0, cn = 0;
	if (!memchr(s->text + ls, '\t', le - ls)) {
		/* no tab: a byte a column, the line copied whole (the loop
		 * below, a byte at a time, is what a long line cost) */
		memcpy(line, s->text + ls, le - ls);
		ln = le - ls;
		memset(caret, ' ', loc.off - ls);
		cn = loc.off - ls;
		caret[cn++] = '^';
		if (end > loc.off + 1) {
			memset(caret + cn, '~', end - loc.off - 1);
			cn += end - loc.off - 1;
		}
		line[ln++] = '\n';
		caret[cn++] = '\n';
		fwrite(line, 1, ln, out);
		fwrite(caret, 1, cn, out);
		free(line);
		return;
	}
	/* Each byte's display width, tabs advancing to the next 8-column stop. */
	size_t col = 0;
	for (size_t i = ls; i < le; i++) {
		char c = s->text[i];
		size_t w = c == '\t' ? 8 - col % 8 : 1;
		for (size_t k = 0; k < w; k++)
			line[ln++] = c == '\t' ? ' ' : c;
		char mark = ' ';
		if (i == loc.off)
			mark = '^';
		else if (i > loc.off && i < end)
			mark = '~';
		for (size_t k = 0; k < w; k++)
			caret[cn++] = (mark == '^' && k > 0) ? '~' : mark;
		col += w;
	}
	line[ln++] = '\n';
	if (loc.off >= le)
		caret[cn++] = '^';
	/* Trailing blanks of the caret line are not printed. */
	while (cn > 0 && caret[cn - 1] == ' ')
		cn--;
	caret[cn++] = '\n';
	fwrite(line, 1, ln, out);
	fwrite(caret, 1, cn, out);
	free(line);
}

/* A diagnostic is made in memory and written in one call: stderr is
 * unbuffered, where each piece was a system call of its own. A buffered
 * stream (an API caller's, the fuzzer's) is flushed once, by diag_free: a
 * flush per diagnostic was a system call each, and a bad script has tens. */
static void report(struct diag *dg, struct loc loc, const char *level, const char *fmt,
		   va_list ap)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	FILE *out = m ? m : dg->out;
	fprintf(out, "%s:%u:%u: %s: ", diag_source_name(dg, loc.file), loc.line, loc.col,
		level);
	vfprintf(out, fmt, ap);
	fputc('\n', out);
	show_line(dg, out, loc);
	if (m) {
		fclose(m);
		fwrite(buf, 1, len, dg->out);
		free(buf);
	}
}

int diag_error(struct diag *dg, struct loc loc, const char *fmt, ...)
{
	if (dg->muted)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	report(dg, loc, "error", fmt, ap);
	va_end(ap);
	dg->errors++;
	return -1;
}

void diag_warning(struct diag *dg, struct loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report(dg, loc, "warning", fmt, ap);
	va_end(ap);
	dg->warnings++;
}

void diag_note(struct diag *dg, struct loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report(dg, loc, "note", fmt, ap);
	va_end(ap);
}

int diag_fatal(struct diag *dg, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("dcc: error: ", dg->out);
	vfprintf(dg->out, fmt, ap);
	fputc('\n', dg->out);
	va_end(ap);
	dg->errors++;
	return -1;
}

_Noreturn void diag_bug(struct diag *dg, struct loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report(dg, loc, "internal error", fmt, ap);
	va_end(ap);
	exit(DIAG_BUG_EXIT);
}

_Noreturn void diag_bug_fatal(struct diag *dg, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("dcc: internal error: ", dg->out);
	vfprintf(dg->out, fmt, ap);
	fputc('\n', dg->out);
	va_end(ap);
	fflush(dg->out);
	exit(DIAG_BUG_EXIT);
}

int diag_errors(const struct diag *dg)
{
	return dg->errors;
}
