/*
 * The pid provider's descriptions: pid$target:OBJECT:FUNC:entry|return and
 * pidNNN:OBJECT:FUNC:entry|return. The functions are not known when the
 * script is compiled (the process may not exist yet), so each description
 * is one probe of the object; the loader resolves OBJECT and FUNC (globs
 * over the process's mapped ELF files, loader/pid.c) once the process
 * exists and gives every function it attaches a probe id of its own.
 */
#include <stdlib.h>
#include <string.h>

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
	const char *prov = d->prov ? d->prov : "", *name = d->pname ? d->pname : "";

	if (pid_of(prov, pid))
		return diag_error(s->dg, d->loc, "the pid provider needs a process: pid$target "
				  "or pidNNN, not %s", prov);
	if (s->listing)
		return diag_error(s->dg, d->loc, "%s probes exist once the process does: "
				  "dcc -l does not list them", prov);
	if (*name && strspn(name, "0123456789abcdefABCDEFx") == strlen(name))
		return diag_error(s->dg, d->loc, "pid probes at an instruction offset (%s) are "
				  "not supported yet: use entry or return", name);
	return 0;
}
