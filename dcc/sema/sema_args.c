/*
 * Typed args[] for syscall probes: the argument types of a syscall are the
 * fields of its syscalls/sys_enter_NAME tracepoint (tracefs "format" file of
 * the build host), parsed from their C spelling into D types. Return probes
 * have args[0] = args[1] = the return value.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dcc/abi.h>

#include "arena.h"
#include "btf.h"
#include "diag.h"
#include "sema_internal.h"

static FILE *open_format(const char *event)
{
	static const char *const roots[] = { "/sys/kernel/tracing",
					     "/sys/kernel/debug/tracing" };
	char path[512];
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/events/%s/format", roots[i], event);
		FILE *f = fopen(path, "r");
		if (f)
			return f;
	}
	return NULL;
}

/* "const char *const", "unsigned long", "struct stat *", "umode_t" -> type */
static struct type *c_type(struct sema *s, char *spell, unsigned size, bool is_signed)
{
	int stars = 0;
	for (char *p = spell; *p; p++)
		if (*p == '*') {
			stars++;
			*p = ' ';
		}
	char words[128] = "";
	bool is_struct = false, is_union = false;
	for (char *w = strtok(spell, " \t"); w; w = strtok(NULL, " \t")) {
		if (!strcmp(w, "const") || !strcmp(w, "volatile") || !strcmp(w, "__user"))
			continue;
		if (!strcmp(w, "struct") || !strcmp(w, "union")) {
			is_struct = w[0] == 's';
			is_union = w[0] == 'u';
			continue;
		}
		if (*words)
			strncat(words, " ", sizeof(words) - strlen(words) - 1);
		strncat(words, w, sizeof(words) - strlen(words) - 1);
	}
	struct type *t = NULL;
	if ((is_struct || is_union) && s->btf)
		t = sema_btf_struct(s->btf, words, is_union);
	else if (!strcmp(words, "unsigned"))
		t = &type_uint;
	else if (!(t = type_by_name(words)) && s->btf)
		t = sema_btf_typedef(s->btf, words);
	if (!t) {
		if (stars)
			t = &type_void;
		else
			t = size == 1 ? (is_signed ? &type_schar : &type_uchar)
			  : size == 2 ? (is_signed ? &type_short : &type_ushort)
			  : size == 4 ? (is_signed ? &type_int : &type_uint)
			  : is_signed ? &type_long : &type_ulong;
	}
	for (int i = 0; i < stars; i++)
		t = type_ptr(s->ar, t);
	return t;
}

int sema_event_fields(struct sema *s, const char *group, const char *event, struct type **types,
		      unsigned *offs, int max, bool after_nr)
{
	char ev[256];
	snprintf(ev, sizeof(ev), "%s/%s", group, event);
	FILE *f = open_format(ev);
	if (!f)
		return -1;
	char line[512];
	int n = 0;
	bool started = !after_nr;
	while (fgets(line, sizeof(line), f) && n < max) {
		char *field = strstr(line, "field:");
		if (!field)
			continue;
		field += 6;
		char *semi = strchr(field, ';');
		if (!semi)
			continue;
		*semi = 0;
		if (strstr(field, "common_"))
			continue;
		if (after_nr && strstr(field, "__syscall_nr")) {
			started = true;
			continue;
		}
		if (!started)
			continue;
		unsigned size = 8, off = 0;
		int sgn = 0;
		char *sz = strstr(semi + 1, "size:"), *sg = strstr(semi + 1, "signed:");
		char *of = strstr(semi + 1, "offset:");
		if (sz)
			size = (unsigned)atoi(sz + 5);
		if (sg)
			sgn = atoi(sg + 7);
		if (of)
			off = (unsigned)atoi(of + 7);
		/* "char comm[16]" and "__data_loc char[] name" stay bytes/ints */
		char *br = strchr(field, '[');
		bool is_array = br != NULL;
		if (br)
			*br = 0;
		/* drop the field name: the last word */
		char *end = field + strlen(field);
		while (end > field && end[-1] == ' ')
			end--;
		while (end > field && (end[-1] == '_' || (end[-1] >= 'a' && end[-1] <= 'z') ||
				       (end[-1] >= 'A' && end[-1] <= 'Z') ||
				       (end[-1] >= '0' && end[-1] <= '9')))
			end--;
		*end = 0;
		struct type *t = c_type(s, field, is_array ? 1 : size, sgn);
		if (is_array && t->size && size / t->size > 1)
			t = type_array(s->ar, t, size / t->size);
		if (strstr(field, "__data_loc"))
			t = &type_uint; /* offset and length of a dynamic array */
		offs[n] = off;
		types[n++] = t;
	}
	fclose(f);
	return n;
}

/* The argument types of syscall NAME; returns the count or -1. */
static int syscall_arg_types(struct sema *s, const char *name, struct type **types, int max)
{
	char event[128];
	unsigned offs[16];
	snprintf(event, sizeof(event), "sys_enter_%s", name);
	return sema_event_fields(s, "syscalls", event, types, offs, max, true);
}

/* args[i] in the current clause: a D type, or an error. */
int sema_args_type(struct sema *s, struct node *n, int64_t i, struct type **out)
{
	struct clause_info *ci = s->cur_clause;
	if (!ci || i < 0 || i > 9)
		return diag_error(s->dg, n->loc, "args[] index must be a constant from 0 to 9");
	struct type *t = NULL;
	bool regs = false; /* some probe's arguments are registers, not a record */
	for (int g = 0; g < ci->ngroups; g++) {
		struct pgroup *grp = &ci->groups[g];
		for (int k = 0; k < grp->nprobes; k++) {
			struct probe *p = grp->probes[k];
			struct type *pt;
			if (p->kind == PK_SYSCALL_RETURN) {
				pt = i < 2 ? &type_long : NULL;
			} else if (p->kind == PK_SYSCALL_ENTRY) {
				struct type *types[6];
				sema_btf(s, n->loc);
				int na = syscall_arg_types(s, p->func, types, 6);
				if (na < 0)
					return diag_error(s->dg, n->loc, "args[] of syscall probes "
						"needs tracefs on the build host (mount -t tracefs nodev "
						"/sys/kernel/tracing), or use arg%d", (int)i);
				pt = i < na ? types[i] : NULL;
			} else if (p->kind == PK_FBT_RETURN) {
				/* DTrace's fbt return: args[0] the offset, args[1] the value */
				pt = i == 0 ? &type_int : i == 1 && p->ftypes &&
				     p->ftypes[p->nfields]->kind != T_VOID ? p->ftypes[p->nfields]
								     : NULL;
			} else if (p->kind == PK_USDT) {
				/* a note's arguments have sizes, not types */
				pt = i < DCC_USDT_ARGS_MAX ? &type_long : NULL;
			} else if (p->kind == PK_SDT || p->kind == PK_RAWTP ||
				   p->kind == PK_FBT_ENTRY) {
				pt = i < p->nfields ? p->ftypes[i] : NULL;
			} else {
				return diag_error(s->dg, n->loc, "probe %s:%s:%s:%s has no typed "
						  "arguments", p->prov, p->mod, p->func, p->name);
			}
			if (!pt)
				return diag_error(s->dg, n->loc, "args[%d] does not exist for probe "
						  "%s:%s:%s:%s", (int)i, p->prov, p->mod, p->func,
						  p->name);
			if (t && strcmp(t->name, pt->name))
				return diag_error(s->dg, n->loc, "args[%d] is '%s' in some probes of "
						  "this clause and '%s' in others", (int)i,
						  type_str(t), type_str(pt));
			t = pt;
			regs |= p->kind != PK_SDT;
		}
	}
	if (!t)
		return diag_error(s->dg, n->loc, "args[] needs a probe with arguments");
	/* a float argument is passed in an FP register, which BPF never sees;
	 * a tracepoint's record holds float and double fields in memory */
	if (type_is_float(t) && (regs || t->size > 8))
		return diag_error(s->dg, n->loc, "args[%d] is a '%s', which BPF cannot read here",
				  (int)i, type_str(t));
	*out = t;
	return 0;
}
