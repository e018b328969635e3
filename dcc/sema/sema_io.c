/*
 * The io provider's compile-time half: which kernel event serves each io
 * probe, and args[] of io probes turned into the io.d translations of the
 * event's struct request (args[0] bufinfo_t *, args[1] devinfo_t *,
 * args[2] fileinfo_t * of no file).
 *
 * io:::start is block_rq_issue (a request handed to the driver) and
 * io:::done is block_rq_complete, both through tp_btf, so the two fire on
 * the same request. io:::wait-start and wait-done have no tracepoint:
 * DTrace serves them with fbt on submit_bio_wait(), which dcc doesn't yet
 * compose into a provider, so they are refused by name.
 */
#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "sema_internal.h"

static const struct {
	const char *name, *event;
} io_probes[] = {
	{ "start", "block_rq_issue" },
	{ "done", "block_rq_complete" },
};

const char *sema_io_event(int i, const char **name)
{
	if (i < 0 || i >= (int)(sizeof(io_probes) / sizeof(io_probes[0])))
		return NULL;
	*name = io_probes[i].name;
	return io_probes[i].event;
}

int sema_io_refused(struct sema *s, struct node *d, const char *name)
{
	if (strcmp(name, "wait-start") && strcmp(name, "wait-done"))
		return 0;
	return diag_error(s->dg, d->loc, "io:::%s is not supported: the kernel has no tracepoint "
			  "for it (DTrace uses fbt::submit_bio_wait)", name);
}

static bool is_io(const struct probe *p)
{
	return p->event && !strcmp(p->prov, "io");
}

int sema_io_args(struct sema *s, struct node *n, int64_t i)
{
	static const char *const inl[] = { "__io_bufinfo", "__io_devinfo", "__io_fileinfo" };
	struct clause_info *ci = s->cur_clause;
	const struct probe *io = NULL, *other = NULL;

	for (int g = 0; ci && g < ci->ngroups; g++)
		for (int k = 0; k < ci->groups[g].nprobes; k++) {
			const struct probe *p = ci->groups[g].probes[k];
			if (is_io(p))
				io = p;
			else
				other = p;
		}
	if (!io)
		return 1;
	if (other)
		return diag_error(s->dg, n->loc, "args[] of io probes cannot be used in a clause "
				  "that also has %s:%s:%s:%s", other->prov, other->mod, other->func,
				  other->name);
	if (i < 0 || i > 2)
		return diag_error(s->dg, n->loc, "args[%d] does not exist for probe io:%s:%s:%s",
				  (int)i, io->mod, io->func, io->name);
	n->kind = N_IDENT;
	n->name = inl[i];
	n->a = n->b = n->list = NULL;
	n->id = 0;
	n->sym = NULL;
	int r = sema_expand_name(s, n);
	if (r > 0)
		return diag_error(s->dg, n->loc, "the D library's io.d is missing %s", inl[i]);
	return r;
}
