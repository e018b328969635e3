/*
 * Macro variables: $target and the loading process's ids become .rodata
 * values the loader fills before load; $N and $$N are the script's
 * arguments, as integers or strings, bound when the script is compiled.
 */
#include "sema.h"

#include <stdlib.h>
#include <string.h>

#include <dcc/abi.h>
#include "arena.h"
#include "diag.h"
#include "sema_internal.h"

int sema_macro(struct sema *s, struct node *n)
{
	const char *name = n->name;
	/* $target and the loading process's ids: .rodata the loader fills (ival: which) */
	static const char *const ro[] = { "target", "pid", "ppid", "pgid", "sid",
					  "uid",    "gid", "euid", "egid" };
	for (int i = 0; i < 9; i++)
		if (!strcmp(name, ro[i])) {
			n->kind = N_IDENT;
			n->id = B_TARGET;
			n->ival = (uint64_t)i;
			n->str = (char *)ro[i];
			n->type = &type_int;
			return 0;
		}
	char *end;
	long idx = strtol(name, &end, 10);
	if (*end || end == name)
		return diag_error(s->dg, n->loc, "macro variable $%s is not supported by dcc",
				  name);
	bool unset = idx >= s->opts.macro_argc || !s->opts.macro_argv;
	if (!unset && idx == s->opts.macro_argc - 1)
		s->last_arg_ref = true;
	if (unset && !s->opts.defaultargs)
		return diag_error(s->dg, n->loc, "macro argument $%s%s is not defined",
				  n->ival ? "$" : "", name);
	/* defaultargs: an unset argument is 0, or "" as $$N */
	const char *arg = unset ? (n->ival ? "" : "0") : s->opts.macro_argv[idx];
	/* $0, the script's name, is a string as $$0 is */
	if (n->ival || (idx == 0 && !unset)) {
		n->kind = N_STR;
		n->str = arena_strdup(s->ar, arg);
		n->slen = strlen(arg);
		n->type = &type_string;
		return 0;
	}
	char *e;
	unsigned long long v = strtoull(arg, &e, 0);
	if (!*arg || *e)
		return diag_error(s->dg, n->loc, "macro argument $%s is not an integer "
				  "('%s'): use $$%s for its string value", name, arg, name);
	n->kind = N_INT;
	n->ival = v;
	n->iflags = 0;
	n->type = sema_int_literal_type(n);
	return 0;
}

/* One field of a probe description with each $N (and $$N) replaced by the
 * argument's text, as DTrace's lexer does there: pid$1:a.out:go:entry with
 * 1234 for $1 is pid1234:a.out:go:entry. $target and the ids stay: the
 * loader binds $target once the process exists. NULL after a diagnostic. */
static const char *expand_field(struct sema *s, struct node *d, const char *field)
{
	if (!field || !strchr(field, '$'))
		return field;
	size_t cap = strlen(field) + 1, len = 0;
	for (int i = 0; s->opts.macro_argv && i < s->opts.macro_argc; i++)
		cap += strlen(s->opts.macro_argv[i]);
	char *out = arena_alloc(s->ar, cap);
	for (const char *p = field; *p;) {
		const char *digits = p[0] == '$' ? p + 1 + (p[1] == '$') : NULL;
		size_t nd = digits ? strspn(digits, "0123456789") : 0;
		if (!nd) {
			out[len++] = *p++;
			continue;
		}
		long idx = strtol(digits, NULL, 10);
		bool unset = idx >= s->opts.macro_argc || !s->opts.macro_argv;
		if (unset && !s->opts.defaultargs) {
			diag_error(s->dg, d->loc, "macro argument %.*s is not defined",
				   (int)(digits + nd - p), p);
			return NULL;
		}
		if (!unset && idx == s->opts.macro_argc - 1)
			s->last_arg_ref = true;
		const char *arg = unset ? "" : s->opts.macro_argv[idx];
		memcpy(out + len, arg, strlen(arg));
		len += strlen(arg);
		p = digits + nd;
	}
	out[len] = 0;
	return out;
}

int sema_macro_desc(struct sema *s, struct node *d)
{
	const char **fields[] = { &d->prov, &d->mod, &d->func, &d->pname };
	for (int i = 0; i < 4; i++) {
		const char *had = *fields[i];
		if (had && !(*fields[i] = expand_field(s, d, had)))
			return -1;
	}
	return 0;
}

/* As in DTrace, an argument given on the command line that the script never
 * references is an error (the last one stands for all: arguments are
 * positional), unless -x argref says the script may ignore it. */
int sema_macro_unused(struct sema *s)
{
	int last = s->opts.macro_argc - 1;

	if (last < 1 || !s->opts.macro_argv || s->opts.argref || s->last_arg_ref)
		return 0;
	return diag_fatal(s->dg, "extraneous argument '%s' ($%d is not referenced; "
			  "-x argref allows it)", s->opts.macro_argv[last], last);
}
