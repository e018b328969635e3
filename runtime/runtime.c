/*
 * The runtime object: takes a checked metadata blob and the caller's options,
 * works out the options in force (-x over the object's pragmas), binds the
 * ring buffer, drop and aggregation maps of a loaded object, and drains the
 * ring buffer into dcc_runtime__handle_record.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <dcc/abi_opt.h>
#include "rt.h"

void rt_error(struct dcc_runtime *rt, const char *fmt, ...)
{
	va_list ap;

	fprintf(rt->err, "%s: ", rt->progname);
	va_start(ap, fmt);
	vfprintf(rt->err, fmt, ap);
	va_end(ap);
	fputc('\n', rt->err);
	fflush(rt->err);
}

/* The object's own setting of an option ("" for a boolean), or NULL. */
static const char *compiled_value(const struct dcc_runtime *rt, const char *name)
{
	const char *v = NULL;

	for (uint32_t i = 0; i < rt->hdr->nopts; i++)
		if (strcmp(rt_str(rt, rt->opts[i].name), name) == 0)
			v = rt_str(rt, rt->opts[i].value);
	return v;
}

/* A -x the runtime cannot honour: reported, and the reason it fails. */
static int check_x(struct dcc_runtime *rt, const char *name, const char *value)
{
	const struct abi_opt *o = abi_opt_find(name);
	const char *c;

	if (o->flags & ABI_OPT_COMPILE) {
		c = compiled_value(rt, name);
		if (c && strcmp(c, value ? value : "") == 0)
			return 0;
		rt_error(rt, "failed to set -x %s%s%s: it is fixed when the script is compiled "
			 "(%s%s%s here): compile with -x %s%s%s", name, value ? "=" : "",
			 value ? value : "", c ? name : "the default", c && *c ? "=" : "",
			 c ? c : "", name, value ? "=" : "", value ? value : "");
		return -EINVAL;
	}
	if (o->refused) {
		rt_error(rt, "failed to set -x %s%s%s: not supported (%s)", name, value ? "=" : "",
			 value ? value : "", o->refused);
		return -ENOTSUP;
	}
	return 0;
}

static bool known_opt(const char *name)
{
	return abi_opt_find(name) != NULL;
}

const char *dcc_runtime__option(const struct dcc_runtime *rt, const char *name)
{
	/* The last -x wins, as on a command line. */
	for (int i = rt->nx - 1; i >= 0; i--)
		if (strcmp(rt->xnames[i], name) == 0)
			return rt->xvalues[i] ? rt->xvalues[i] : "";
	for (uint32_t i = 0; i < rt->hdr->nopts; i++)
		if (strcmp(rt_str(rt, rt->opts[i].name), name) == 0)
			return rt_str(rt, rt->opts[i].value);
	return NULL;
}

static bool opt_bool(const struct dcc_runtime *rt, const char *name)
{
	const char *v = dcc_runtime__option(rt, name);
	bool on = true;

	if (!v || strcmp(v, "0") == 0) /* setopt("quiet", "0") */
		return false;
	abi_opt_parse_bool(v, &on); /* another word leaves it on, as it always did */
	return on;
}

/* A non-negative integer option; -1 on a bad value. */
static int opt_uint(const struct dcc_runtime *rt, const char *name)
{
	const char *v = dcc_runtime__option(rt, name);
	char *end;
	long n;

	if (!v)
		return 0;
	errno = 0;
	n = strtol(v, &end, 0);
	if (!*v || *end || errno || n < 0 || n > INT_MAX)
		return -1;
	return (int)n;
}

/* A value of an ABI_OPT_ENUM option that is not one of its values. */
static bool bad_value(const char *v, const char *name)
{
	return v && abi_opt_check(abi_opt_find(name), v);
}

/* Work out the options in force; report the first bad one. */
static int apply_options(struct dcc_runtime *rt, bool quiet)
{
	const char *v;

	for (int i = 0; i < rt->nx; i++) {
		int err;

		if (!known_opt(rt->xnames[i])) {
			rt_error(rt, "failed to set -x %s: Invalid option name", rt->xnames[i]);
			return -EINVAL;
		}
		if ((err = check_x(rt, rt->xnames[i], rt->xvalues[i])))
			return err;
	}
	rt->cli_quiet = quiet;
	rt->quiet = quiet || opt_bool(rt, "quiet");
	rt->rawbytes = opt_bool(rt, "rawbytes");
	rt->strsize = 256;
	if ((v = dcc_runtime__option(rt, "strsize"))) {
		uint64_t sz;

		if (!abi_opt_parse_size(v, &sz) && sz >= 2 && sz <= 4096)
			rt->strsize = (unsigned)sz;
	}
	rt->printsize = 0;
	if ((v = dcc_runtime__option(rt, "printsize")) && abi_opt_parse_size(v, &rt->printsize)) {
		rt_error(rt, "failed to set -x printsize=%s: Invalid value for specified option", v);
		return -EINVAL;
	}
	rt->flowindent = opt_bool(rt, "flowindent");
	rt->aggzoom = opt_bool(rt, "aggzoom");
	rt->aggpack = opt_bool(rt, "aggpack");
	rt->agghist = opt_bool(rt, "agghist");
	rt->aggpercpu = opt_bool(rt, "aggpercpu");
	rt->noresolve = opt_bool(rt, "noresolve");
	/* dtrace's test mode, for comparing output with its test suite */
	rt->testing = getenv("_DTRACE_TESTING") != NULL;
	v = dcc_runtime__option(rt, "encoding");
	if (bad_value(v, "encoding")) {
		rt_error(rt, "failed to set -x encoding=%s: Invalid value for specified option", v);
		return -EINVAL;
	}
	if (v) {
		rt->utf8 = strcmp(v, "utf8") == 0;
	} else {
		/* as DTrace: UTF-8 blocks unless the terminal is known not to draw them */
		const char *term = getenv("TERM");

		rt->utf8 = !term || (strcmp(term, "dumb") != 0 && strcmp(term, "sun") != 0 &&
				     strcmp(term, "sun-color") != 0);
	}
	rt->aggsortkey = opt_bool(rt, "aggsortkey");
	rt->aggsortrev = opt_bool(rt, "aggsortrev");
	rt->aggsortpos = opt_uint(rt, "aggsortpos");
	rt->aggsortkeypos = opt_uint(rt, "aggsortkeypos");
	rt->stackindent = dcc_runtime__option(rt, "stackindent") ? opt_uint(rt, "stackindent")
								 : 14;
	if (rt->aggsortpos < 0 || rt->aggsortkeypos < 0 || rt->stackindent < 0) {
		rt_error(rt, "failed to set -x %s: Invalid value for specified option",
			 rt->aggsortpos < 0 ? "aggsortpos"
			 : rt->aggsortkeypos < 0 ? "aggsortkeypos" : "stackindent");
		return -EINVAL;
	}
	v = dcc_runtime__option(rt, "oformat");
	if (bad_value(v, "oformat")) {
		rt_error(rt, "failed to set -x oformat=%s: Invalid value for specified option", v);
		return -EINVAL;
	}
	rt->json = (v && strcmp(v, "json") == 0) || opt_bool(rt, "json");
	v = dcc_runtime__option(rt, "tracefmt");
	if (bad_value(v, "tracefmt")) {
		rt_error(rt, "failed to set -x tracefmt=%s: Invalid value for specified option",
			 v);
		return -EINVAL;
	}
	rt->classic = v && strcmp(v, "classic") == 0;
	rt_bufpolicy_init(rt);
	return 0;
}

int rt_setopt(struct dcc_runtime *rt, const char *name, const char *value)
{
	char **names, **values;

	if (!known_opt(name))
		return -EINVAL;
	names = realloc(rt->xnames, (rt->nx + 1) * sizeof(char *));
	if (names)
		rt->xnames = names;
	values = realloc(rt->xvalues, (rt->nx + 1) * sizeof(char *));
	if (values)
		rt->xvalues = values;
	if (!names || !values)
		return -ENOMEM;
	rt->xnames[rt->nx] = strdup(name);
	rt->xvalues[rt->nx] = value ? strdup(value) : NULL;
	if (!rt->xnames[rt->nx] || (value && !rt->xvalues[rt->nx])) {
		free(rt->xnames[rt->nx]);
		free(rt->xvalues[rt->nx]);
		return -ENOMEM;
	}
	rt->nx++;
	/* a bad value leaves the options as they were before, reported */
	if (apply_options(rt, rt->cli_quiet)) {
		rt->nx--;
		free(rt->xnames[rt->nx]);
		free(rt->xvalues[rt->nx]);
		apply_options(rt, rt->cli_quiet);
	}
	return 0;
}

struct dcc_runtime *dcc_runtime__new(const void *meta, size_t size,
				     const struct dcc_runtime_opts *uopts)
{
	struct dcc_runtime_opts o = {0};
	struct dcc_runtime *rt;
	char why[256];
	int err;

	if (uopts)
		memcpy(&o, uopts, uopts->sz && uopts->sz < sizeof(o) ? uopts->sz : sizeof(o));
	rt = calloc(1, sizeof(*rt));
	if (!rt) {
		errno = ENOMEM;
		return NULL;
	}
	rt->out = o.out ? o.out : stdout;
	rt->err = o.err ? o.err : stderr;
	rt->drops_fd = -1;
	pthread_mutex_init(&rt->lock, NULL);
	err = -ENOMEM;
	if (!(rt->progname = strdup(o.progname ? o.progname : "dcc")))
		goto err_free;
	err = dcc_meta_check(meta, size, why, sizeof(why));
	if (err) {
		rt_error(rt, "%s", why);
		goto err_free;
	}
	size = ((const struct dcc_meta_header *)meta)->size;
	err = -ENOMEM;
	/* 8-byte aligned, so the checked tables can be read in place */
	if (!(rt->meta = aligned_alloc(8, (size + 7) & ~(size_t)7)))
		goto err_free;
	memcpy(rt->meta, meta, size);
	rt->meta_size = size;
	rt_meta_point(rt);

	if (!(rt->clause_warned = calloc(rt->hdr->nclauses + 1, 1)) ||
	    !(rt->action_warned = calloc(rt->hdr->nactions + 1, 1)) ||
	    !(rt->agg_state = calloc(rt->hdr->naggs + 1, sizeof(*rt->agg_state))))
		goto err_free;
	for (uint32_t i = 0; i < rt->hdr->naggs; i++)
		rt->agg_state[i].fd = -1;
	if (rt_probe_index(rt))
		goto err_free;

	if (o.nxopts > 0) {
		if (!(rt->xnames = calloc(o.nxopts, sizeof(char *))) ||
		    !(rt->xvalues = calloc(o.nxopts, sizeof(char *))))
			goto err_free;
		for (int i = 0; i < o.nxopts; i++, rt->nx++) {
			const char *eq = strchr(o.xopts[i], '=');

			rt->xnames[i] = eq ? strndup(o.xopts[i], eq - o.xopts[i])
					   : strdup(o.xopts[i]);
			if (!rt->xnames[i] || (eq && !(rt->xvalues[i] = strdup(eq + 1)))) {
				rt->nx++;
				goto err_free;
			}
		}
	}
	err = apply_options(rt, o.quiet);
	if (err)
		goto err_free;
	rt->json_header_due = rt->json;
	return rt;

err_free:
	dcc_runtime__free(rt);
	errno = -err;
	return NULL;
}

void rt_meta_point(struct dcc_runtime *rt)
{
	rt->hdr = (const void *)rt->meta;
	rt->strs = rt->meta + rt->hdr->str_off;
	rt->probes = (const void *)(rt->meta + rt->hdr->probe_off);
	rt->clauses = (const void *)(rt->meta + rt->hdr->clause_off);
	rt->actions = (const void *)(rt->meta + rt->hdr->action_off);
	rt->args = (const void *)(rt->meta + rt->hdr->arg_off);
	rt->aggs = (const void *)(rt->meta + rt->hdr->agg_off);
	rt->keys = (const void *)(rt->meta + rt->hdr->key_off);
	rt->opts = (const void *)(rt->meta + rt->hdr->opt_off);
	rt->types = (const void *)(rt->meta + rt->hdr->type_off);
	rt->members = (const void *)(rt->meta + rt->hdr->member_off);
}

void dcc_runtime__free(struct dcc_runtime *rt)
{
	if (!rt)
		return;
	ring_buffer__free(rt->rb);
	rt_destr_free(rt);
	rt_spec_free_all(rt);
	rt_bufpolicy_free(rt);
	rt_syms_free(rt);
	for (int i = 0; i < rt->nx; i++) {
		free(rt->xnames[i]);
		free(rt->xvalues[i]);
	}
	free(rt->xnames);
	free(rt->xvalues);
	rt_drops_free(rt);
	free(rt->agg_state);
	free(rt->probe_by_id);
	for (uint32_t i = 0; rt->probe_tail && i < rt->hdr->nprobes; i++)
		free(rt->probe_tail[i]);
	free(rt->probe_tail);
	free(rt->clause_warned);
	free(rt->action_warned);
	free(rt->meta);
	free(rt->progname);
	pthread_mutex_destroy(&rt->lock);
	free(rt);
}

void dcc_runtime__output_reopened(struct dcc_runtime *rt)
{
	pthread_mutex_lock(&rt->lock);
	rt->json_header_due = rt->json;
	pthread_mutex_unlock(&rt->lock);
}

const struct dcc_meta_header *dcc_runtime__meta(const struct dcc_runtime *rt)
{
	return rt->hdr;
}

const char *dcc_runtime__str(const struct dcc_runtime *rt, uint32_t off)
{
	return rt_str(rt, off);
}

bool dcc_runtime__exited(const struct dcc_runtime *rt, int *status)
{
	if (rt->exited && status)
		*status = rt->exit_status;
	return rt->exited;
}

void dcc_runtime__set_target(struct dcc_runtime *rt, int pid)
{
	rt->target = pid;
}

int dcc_runtime__set_agg_fd(struct dcc_runtime *rt, uint32_t agg_id, int fd)
{
	if (agg_id >= rt->hdr->naggs)
		return -ENOENT;
	const struct dcc_meta_agg *a = &rt->aggs[agg_id];
	struct bpf_map_info info = { 0 };
	__u32 len = sizeof(info);
	int err = bpf_obj_get_info_by_fd(fd, &info, &len);

	if (err)
		return err;
	/* the snapshot reads keys and values at the metadata's sizes: a map
	 * of other sizes (a corrupted object) would be read out of bounds */
	if (info.key_size != a->key_size || info.value_size != a->val_size) {
		rt_error(rt, "the map of aggregation @%s has %u-byte keys and %u-byte values, "
			 "its metadata says %u and %u", rt_str(rt, a->name), info.key_size,
			 info.value_size, a->key_size, a->val_size);
		return -EINVAL;
	}
	rt->agg_state[agg_id].fd = fd;
	rt->agg_state[agg_id].array = info.type == BPF_MAP_TYPE_PERCPU_ARRAY;
	rt->agg_state[agg_id].max_entries = info.max_entries;
	return 0;
}

static int on_record(void *ctx, void *data, size_t size)
{
	dcc_runtime__handle_record(ctx, data, size);
	return 0;
}

int dcc_runtime__set_ringbuf_fd(struct dcc_runtime *rt, int fd)
{
	struct ring_buffer *rb;

	rb = ring_buffer__new(fd, on_record, rt, NULL);
	if (!rb)
		return -errno;
	ring_buffer__free(rt->rb);
	rt->rb = rb;
	return 0;
}

int dcc_runtime__bind(struct dcc_runtime *rt, struct bpf_object *obj)
{
	struct bpf_map *m;
	int err;

	m = bpf_object__find_map_by_name(obj, DCC_MAP_RINGBUF);
	if (m) {
		err = dcc_runtime__set_ringbuf_fd(rt, bpf_map__fd(m));
		if (err) {
			rt_error(rt, "cannot open ring buffer %s: %s", DCC_MAP_RINGBUF,
				 strerror(-err));
			return err;
		}
	} else if (rt->hdr->nclauses) {
		rt_error(rt, "object has no %s map", DCC_MAP_RINGBUF);
		return -ENOENT;
	}
	m = bpf_object__find_map_by_name(obj, DCC_MAP_DROPS);
	err = m ? dcc_runtime__set_drops_fd(rt, bpf_map__fd(m)) : rt_drops_bind_bss(rt, obj);
	if (err)
		return err;
	for (uint32_t i = 0; i < rt->hdr->naggs; i++) {
		const char *name = rt_str(rt, rt->aggs[i].map);

		m = bpf_object__find_map_by_name(obj, name);
		if (!m) {
			rt_error(rt, "object has no map %s for aggregation @%s", name,
				 rt_str(rt, rt->aggs[i].name));
			return -ENOENT;
		}
		err = dcc_runtime__set_agg_fd(rt, i, bpf_map__fd(m));
		if (err)
			return err;
	}
	return 0;
}

int dcc_runtime__poll(struct dcc_runtime *rt, int timeout_ms)
{
	int n;

	if (rt->rb) {
		/* Records are submitted without a wakeup (BPF_RB_NO_WAKEUP) unless
		 * the buffer fills or exit() is called, so epoll only wakes on
		 * those: after the wait, drain whatever is there. */
		n = ring_buffer__poll(rt->rb, timeout_ms);
		if (n >= 0) {
			int k = ring_buffer__consume(rt->rb);
			n = k < 0 ? k : n + k;
		}
	} else {
		/* Nothing records: just wait, interruptibly. */
		n = poll(NULL, 0, timeout_ms);
		n = n < 0 ? -errno : 0;
	}
	/* a full disk or a closed pipe: the caller must know, not lose the
	 * trace silently (stdio's error flag stays set for it to see) */
	if (fflush(rt->out) == EOF && n >= 0)
		n = errno ? -errno : -EIO;
	return n;
}
