/*
 * "#pragma D depends_on <class> <name>": the script needs a provider or a
 * kernel module, and is refused when this system lacks it. A library
 * dependency is for D libraries, and dcc's library is built in: a script
 * naming one is refused as DTrace refuses it in a main program.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "arena.h"
#include "diag.h"
#include "sema.h"
#include "sema_internal.h"

/* A kernel module whose types dcc can read: vmlinux, or a loaded module with
 * BTF when compiling for the running kernel. */
static bool module_known(const struct sema *s, const char *name)
{
	char path[320];

	if (!strcmp(name, "vmlinux"))
		return true;
	if (s->opts.btf_path || strchr(name, '/') || !*name)
		return false;
	snprintf(path, sizeof(path), "/sys/kernel/btf/%s", name);
	return access(path, F_OK) == 0;
}

int sema_pragma_depends(struct sema *s, struct node *d)
{
	char cls[32], name[256], extra[2];
	const char *text = d->str ? d->str : "";
	int n = sscanf(text, "%31s %255s %1s", cls, name, extra);

	if (n != 2)
		return diag_error(s->dg, d->loc, "malformed #pragma D depends_on: it takes a "
				  "class and a name (provider, module or library)");
	if (!strcmp(cls, "provider")) {
		if (!sema_provider_known(name))
			return diag_error(s->dg, d->loc, "program requires provider %s, which dcc "
					  "does not support", name);
		return 0;
	}
	if (!strcmp(cls, "module")) {
		if (!module_known(s, name))
			return diag_error(s->dg, d->loc, "program requires module %s, which is not "
					  "loaded or has no BTF", name);
		return 0;
	}
	if (!strcmp(cls, "library"))
		return diag_error(s->dg, d->loc, "main program may not explicitly depend on a "
				  "library (dcc's D library is built in)");
	return diag_error(s->dg, d->loc, "invalid class '%s' in #pragma D depends_on: it is "
			  "provider, module or library", cls);
}
