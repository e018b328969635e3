/*
 * The cpc provider's probe names, DTrace's EVENT-MODE-COUNT: a perf event
 * of headers/dcc/abi_cpc.h's table (software events everywhere, hardware
 * ones where the CPU has a PMU, which only the loader can tell), a mode
 * (user, kernel or all) and the count of events between two firings. A
 * cpc probe runs like a profile probe: one perf event per CPU, arg0 the
 * kernel PC and arg1 the user PC where it fired (cg_timer.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <dcc/abi.h>
#include <dcc/abi_cpc.h>
#include "diag.h"
#include "sema_internal.h"

int sema_cpc_parse(struct sema *s, struct node *d, const char *name, const char **event,
		   uint32_t *flags, uint64_t *count)
{
	const char *c = strrchr(name, '-');
	const char *m = c && c > name ? memrchr(name, '-', (size_t)(c - name)) : NULL;
	if (!m || m == name || !c[1] || strspn(c + 1, "0123456789") != strlen(c + 1))
		return diag_error(s->dg, d->loc, "cpc probe '%s' is not of the form "
				  "EVENT-MODE-COUNT (e.g. cpu-clock-all-1000000)", name);
	char *ev = strndup(name, (size_t)(m - name));
	const struct dcc_cpc_event *e = abi_cpc_event(ev);
	size_t mlen = (size_t)(c - m - 1);
	int err = 0;
	if (!e)
		err = diag_error(s->dg, d->loc, "cpc probe '%s': unknown event '%s' (known: "
				 "cpu-clock, task-clock, page-faults, context-switches, "
				 "cpu-migrations, minor-faults, major-faults, and the hardware "
				 "events cycles, instructions, cache-references, cache-misses, "
				 "branch-instructions, branch-misses, bus-cycles, ref-cycles)",
				 name, ev);
	else if (mlen == 3 && !strncmp(m + 1, "all", 3))
		*flags = 0;
	else if (mlen == 4 && !strncmp(m + 1, "user", 4))
		*flags = DCC_ATTACH_F_NOKERNEL;
	else if (mlen == 6 && !strncmp(m + 1, "kernel", 6))
		*flags = DCC_ATTACH_F_NOUSER;
	else
		err = diag_error(s->dg, d->loc, "cpc probe '%s': the mode is user, kernel or all, "
				 "not '%.*s'", name, (int)mlen, m + 1);
	char *end;
	errno = 0;
	unsigned long long n = strtoull(c + 1, &end, 10);
	if (!err && (*end || errno || n == 0))
		err = diag_error(s->dg, d->loc, "cpc probe '%s': the count %s is not a positive "
				 "number", name, c + 1);
	*event = e ? e->name : NULL;
	*count = n;
	free(ev);
	return err;
}
