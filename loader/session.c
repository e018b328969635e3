/*
 * The embedding API (headers/dcc/session.h): loader_run()'s steps for an
 * application that keeps its own process, signals and output. Messages go
 * to the runtime's error stream; every failure is a negative errno.
 */
#include "internal.h"

#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dcc/abi_opt.h"
#include "dcc/session.h"

struct dcc_session {
	struct dcc_runtime *rt;
	struct bpf_object *obj;
	struct attach_set as;
	const char *prog;
	bool loaded, started, stopped;
};

static int session_bufsize(struct dcc_session *s, uint64_t *bytes)
{
	const struct abi_opt *o = abi_opt_find("bufsize");
	const char *v = dcc_runtime__option(s->rt, "bufsize");

	if (!v)
		v = o->def;
	if (abi_opt_parse_size(v, bytes)) {
		fprintf(dcc_runtime__err(s->rt), "%s: failed to set option bufsize to '%s': "
			"Invalid value for specified option\n", s->prog, v);
		return -EINVAL;
	}
	return 0;
}

static int session_init(struct dcc_session *s, const void *elf, size_t size,
			const struct dcc_runtime_opts *opts)
{
	FILE *err = opts && opts->err ? opts->err : stderr;
	const void *meta;
	size_t meta_size;
	char why[256] = "";
	uint64_t bufsize;
	int e;

	e = dcc_meta_from_elf(elf, size, &meta, &meta_size, why, sizeof(why));
	if (!e)
		e = dcc_meta_check(meta, meta_size, why, sizeof(why));
	if (e) {
		fprintf(err, "%s: %s\n", s->prog, *why ? why : strerror(-e));
		return e;
	}
	s->rt = dcc_runtime__new(meta, meta_size, opts);
	if (!s->rt)
		return errno ? -errno : -EINVAL; /* the runtime said why */
	if ((dcc_runtime__meta(s->rt)->flags & DCC_META_F_DESTRUCTIVE) &&
	    !dcc_runtime__option(s->rt, "destructive")) {
		fprintf(err, "%s: could not enable tracing: Destructive actions not allowed\n",
			s->prog);
		return -EPERM;
	}
	e = session_bufsize(s, &bufsize);
	if (e)
		return e;
	LIBBPF_OPTS(bpf_object_open_opts, oo, .object_name = "dcc");
	s->obj = bpf_object__open_mem(elf, size, &oo);
	if (!s->obj) {
		e = errno ? -errno : -EINVAL;
		fprintf(err, "%s: libbpf cannot open the object: %s\n", s->prog, strerror(-e));
		return e;
	}
	return loader_prepare(s->obj, s->rt, 0, bufsize, s->prog);
}

int dcc_session__open(const void *elf, size_t size, const struct dcc_runtime_opts *opts,
		      struct dcc_session **out)
{
	struct dcc_session *s;
	int e;

	if (!out)
		return -EINVAL;
	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->prog = opts && opts->progname ? opts->progname : "dcc";
	e = session_init(s, elf, size, opts);
	if (e) {
		dcc_session__free(s);
		return e;
	}
	*out = s;
	return 0;
}

static bool needs_tracefs(struct dcc_runtime *rt)
{
	const struct dcc_meta_header *h = dcc_runtime__meta(rt);
	const struct dcc_meta_attach *a = (const void *)((const char *)h + h->attach_off);

	for (uint32_t i = 0; i < h->nattach; i++)
		if (a[i].kind == DCC_ATTACH_TRACEPOINT || a[i].kind == DCC_ATTACH_KPROBE ||
		    a[i].kind == DCC_ATTACH_KRETPROBE || a[i].kind == DCC_ATTACH_UPROBE ||
		    a[i].kind == DCC_ATTACH_URETPROBE)
			return true;
	return false;
}

int dcc_session__start(struct dcc_session *s)
{
	FILE *err;
	int e;

	if (!s || s->started)
		return -EINVAL;
	err = dcc_runtime__err(s->rt);
	s->started = true;
	if (bpf_object__load(s->obj)) {
		e = errno ? -errno : -EINVAL;
		fprintf(err, "%s: failed to load the object: %s\n", s->prog, strerror(-e));
		return e;
	}
	s->loaded = true;
	e = loader_fill_cpuinfo(s->obj, err, s->prog);
	if (!e)
		e = dcc_runtime__bind(s->rt, s->obj);
	if (!e && needs_tracefs(s->rt))
		e = attach_mount_tracefs(err, s->prog);
	/* pidNNN and PROVNNN probes name their process: their maps */
	s->as.pidnames_fd = bpf_object__find_map_fd_by_name(s->obj, DCC_MAP_PIDNAMES);
	s->as.usdtspecs_fd = bpf_object__find_map_fd_by_name(s->obj, DCC_MAP_USDTSPECS);
	if (!e)
		e = attach_all(&s->as, s->obj, s->rt, s->prog);
	if (!e)
		e = attach_run_once(s->obj, s->rt, DCC_ATTACH_BEGIN, s->prog);
	if (e)
		return e < 0 ? e : -EINVAL;
	loader_phase_tracing(s->obj);
	return 0;
}

int dcc_session__poll(struct dcc_session *s, int timeout_ms)
{
	if (!s || !s->loaded)
		return -EINVAL;
	return dcc_runtime__poll(s->rt, timeout_ms);
}

int dcc_session__stop(struct dcc_session *s)
{
	int e, n;

	if (!s || !s->loaded)
		return -EINVAL;
	if (s->stopped)
		return 0;
	s->stopped = true;
	attach_detach_all(&s->as);
	e = attach_run_once(s->obj, s->rt, DCC_ATTACH_END, s->prog);
	while ((n = dcc_runtime__poll(s->rt, 0)) > 0 || n == -EINTR)
		;
	dcc_runtime__flush_ring(s->rt);
	return e < 0 ? e : n < 0 ? n : 0;
}

void dcc_session__free(struct dcc_session *s)
{
	if (!s)
		return;
	if (s->loaded && !s->stopped)
		dcc_session__stop(s);
	attach_release(&s->as);
	bpf_object__close(s->obj);
	if (s->rt)
		dcc_runtime__free(s->rt);
	free(s);
}

struct dcc_runtime *dcc_session__runtime(struct dcc_session *s)
{
	return s ? s->rt : NULL;
}

struct bpf_object *dcc_session__object(struct dcc_session *s)
{
	return s ? s->obj : NULL;
}
