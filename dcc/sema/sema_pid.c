/*
 * The pid provider's descriptions: pid$target:OBJECT:FUNC:NAME and
 * pidNNN:OBJECT:FUNC:NAME, NAME entry, return or a hexadecimal offset into
 * the function ("1c"). The functions are not known when the script is
 * compiled (the process may not exist yet), so each description is one
 * probe of the object; the loader resolves OBJECT and FUNC (globs over the
 * process's mapped ELF files, loader/pid.c) once the process exists and
 * gives every function it attaches a probe id of its own.
 *
 * An offset is trusted to start an instruction: dcc decodes no x86 (the
 * loader only refuses one past the function's end), and a uprobe in the
 * middle of an instruction corrupts it. A name glob that could match
 * offsets ("*", "1?") is refused rather than made one uprobe per
 * instruction of every function it meets.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "diag.h"
#include "sema_internal.h"

/* the provider's name (not the builtin variable's) */
static const char prov_name[] = "pid";
#define PROV_LEN (sizeof(prov_name) - 1)

/* "pid$target" (pid 0: $target) or "pid123"; -1 when not the pid provider */
static int pid_of(const char *prov, uint32_t *pid)
{
	if (strncmp(prov, prov_name, PROV_LEN))
		return -1;
	if (!strcmp(prov + 3, "$target")) {
		*pid = 0;
		return 0;
	}
	if (prov[3] < '1' || prov[3] > '9' || strspn(prov + 3, "0123456789") != strlen(prov + 3) ||
	    strlen(prov + 3) > 9)
		return -1;
	*pid = (uint32_t)strtoul(prov + 3, NULL, 10);
	return 0;
}

bool sema_pid_provider(const char *prov)
{
	uint32_t pid;

	return prov && (pid_of(prov, &pid) == 0 ||
			(!strncmp(prov, prov_name, PROV_LEN) && (!prov[3] || strchr("0123456789$*?[", prov[3]))));
}

int sema_pid_check(struct sema *s, struct node *d, uint32_t *pid)
{
	const char *prov = d->prov ? d->prov : "";

	if (pid_of(prov, pid))
		return diag_error(s->dg, d->loc, "the pid provider needs a process: pid$target "
				  "or pidNNN, not %s", prov);
	if (s->listing)
		return diag_error(s->dg, d->loc, "%s probes exist once the process does: "
				  "dcc -l does not list them", prov);
	return 0;
}

static const char hex[] = "0123456789abcdef";

/* Could glob pat match an offset's name (lowercase hex digits, no leading
 * zero)? Builds the shortest string of hex digits the pattern's elements
 * allow ('*' none, '?' and a class a digit each) and asks fnmatch. */
static bool glob_matches_offset(const char *pat)
{
	char cand[64];
	size_t k = 0;

	for (const char *p = pat; *p && k + 2 < sizeof(cand); p++) {
		if (*p == '*')
			continue;
		if (*p == '?') {
			cand[k++] = '1';
		} else if (*p == '[') {
			const char *end = strchr(p + 2, ']'); /* "[]...]" holds a ']' */
			char cls[64], one[2] = { 0 };
			int c = -1;

			if (!end || (size_t)(end - p) >= sizeof(cls) - 1)
				return false;
			snprintf(cls, sizeof(cls), "%.*s", (int)(end - p + 1), p);
			for (int h = 0; h < 16 && c < 0; h++) {
				one[0] = hex[h];
				c = fnmatch(cls, one, 0) ? -1 : hex[h];
			}
			if (c < 0)
				return false;
			cand[k++] = (char)c;
			p = end;
		} else {
			cand[k++] = p[0] == '\\' && p[1] ? *++p : *p;
		}
	}
	cand[k] = 0;
	if (!k) /* "*" */
		strcpy(cand, "0");
	return strspn(cand, hex) == strlen(cand) && !fnmatch(pat, cand, 0);
}

int sema_pid_offset(struct sema *s, struct node *d, const char **off)
{
	const char *name = d->pname ? d->pname : "";
	size_t n = strlen(name);

	if (n && strpbrk(name, "*?[")) {
		if (glob_matches_offset(name))
			return diag_error(s->dg, d->loc, "pid probe name %s would match "
					  "instruction offsets, a uprobe for each instruction of the "
					  "function: name the offset, or use entry or return", name);
		return 0;
	}
	if (!n || strspn(name, "0123456789abcdefABCDEF") != n)
		return 0;
	if (n > 16)
		return diag_error(s->dg, d->loc, "pid probe offset %s is too large", name);
	*off = arena_printf(s->ar, "%llx", (unsigned long long)strtoull(name, NULL, 16));
	return 1;
}
