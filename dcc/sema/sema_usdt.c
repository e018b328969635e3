/*
 * USDT descriptions: PROV$target:MODULE:FUNC:NAME, PROVNNN:... and PROV*:::
 * for a provider this compiler does not know. The probes are the
 * .note.stapsdt notes of the process's binary and libraries, which exist
 * only once the process does: as for the pid provider (sema_pid.c), each
 * description is one probe of the object, resolved by the loader against
 * the process (loader/usdt.c), which gives each note it attaches a probe id
 * of its own. What sema can tell is the form; a description that matches
 * no note is the loader's error, naming it.
 */
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "sema_internal.h"

static bool is_glob_char(char c)
{
	return c == '*' || c == '?' || c == '[';
}

int sema_usdt_form(const char *prov, bool nothing_else, uint32_t *pid)
{
	size_t n = prov ? strlen(prov) : 0, stem = n;
	const char *dollar = prov ? strchr(prov, '$') : NULL;

	*pid = 0;
	if (!n)
		return 0;
	if (dollar) /* PROV$target */
		return dollar > prov && !strcmp(dollar, "$target");
	while (stem && prov[stem - 1] >= '0' && prov[stem - 1] <= '9')
		stem--;
	if (stem < n && stem && n - stem <= 9 && prov[stem] != '0' &&
	    !is_glob_char(prov[stem - 1]) && !sema_provider_known(prov)) {
		*pid = (uint32_t)strtoul(prov + stem, NULL, 10); /* PROVNNN */
		return 1;
	}
	/* PROV*: a glob over the providers of $target's notes, once no
	 * provider of the kernel's matched */
	return nothing_else && n > 1 && prov[n - 1] == '*' && !strpbrk(prov, "?[") &&
	       strspn(prov, "*") == 0;
}

int sema_usdt_check(struct sema *s, struct node *d, uint32_t pid)
{
	if (!s->listing)
		return 0;
	if (!s->opts.list_usdt)
		return diag_error(s->dg, d->loc, "%s probes exist once the process does: "
				  "list them with -p PID or -c CMD", d->prov);
	/* the rows are the loader's to print; none is a probe of sema's */
	return s->opts.list_usdt(s->opts.list_ctx, d->str, pid, s->opts.list_out) ? -1 : 1;
}
