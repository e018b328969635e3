/*
 * "#pragma D depends_on <class> <name>": the script needs a provider or a
 * kernel module, and is refused when this system lacks it. A library
 * dependency is for D libraries, and dcc's library is built in: a script
 * naming one is refused as DTrace refuses it in a main program. And
 * "#pragma D attributes", which has no effect but is checked for its form.
 */
#include <stdio.h>
#include <ctype.h>
#include <string.h>
#include <strings.h>
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

/* One part of an attribute string, case as DTrace ignores it. */
static bool attr_word(const char *w, size_t n, bool cls)
{
	static const char *const stab[] = { "Internal", "Private", "Obsolete", "External",
					    "Unstable", "Evolving", "Stable", "Standard" };
	static const char *const classes[] = { "Unknown", "CPU", "Platform", "Group", "ISA",
					       "Common" };
	const char *const *names = cls ? classes : stab;
	size_t count = cls ? sizeof(classes) / sizeof(*classes) : sizeof(stab) / sizeof(*stab);
	for (size_t i = 0; i < count; i++)
		if (strlen(names[i]) == n && !strncasecmp(names[i], w, n))
			return true;
	return false;
}

/* "#pragma D attributes name-stability/data-stability/class ident": the
 * attributes have no effect in dcc, but the line must be well formed. */
int sema_pragma_attributes(struct sema *s, struct node *d)
{
	char attr[128], name[256];
	const char *text = d->str ? d->str : "";
	if (sscanf(text, "%127s %255s", attr, name) != 2)
		return diag_error(s->dg, d->loc, "malformed #pragma D attributes: it takes "
				  "attributes and a name");
	/* the name is an identifier (or "provider", which a provider's name
	 * follows): "func;" names nothing, as DTrace says */
	if (!isalpha((unsigned char)name[0]) && name[0] != '_')
		return diag_error(s->dg, d->loc, "#pragma D attributes names '%s', which is not an "
				  "identifier", name);
	for (const char *c = name; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '_')
			return diag_error(s->dg, d->loc, "#pragma D attributes names '%s', which is "
					  "not an identifier", name);
	const char *p = attr;
	for (int part = 0; part < 3; part++) {
		size_t n = strcspn(p, "/");
		if (!attr_word(p, n, part == 2))
			return diag_error(s->dg, d->loc, "invalid attributes '%s' in #pragma D "
					  "attributes: name and data stability, then a class "
					  "(Stable/Stable/Common)", attr);
		p += n;
		if (!*p)
			return 0;
		p++;
	}
	return diag_error(s->dg, d->loc, "invalid attributes '%s' in #pragma D attributes: "
			  "at most three parts", attr);
}
