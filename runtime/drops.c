/*
 * Drop counters to messages: reads the counters, a row a CPU (DCC_BSS_DROPS
 * in .bss, mapped; the per-CPU DCC_MAP_DROPS array of older objects), and
 * reports what grew since the last look, worded as DTrace words it
 * ("1 drop on CPU 0", "3 dynamic variable drops").
 */
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "rt.h"

#define BSS_DROPS_SIZE ((size_t)DCC_DROPS_NCPU * DCC_DROP_NR * sizeof(uint64_t))

static int drops_seen_new(struct dcc_runtime *rt)
{
	if (rt->ncpus <= 0)
		rt->ncpus = libbpf_num_possible_cpus();
	if (rt->ncpus <= 0)
		return rt->ncpus < 0 ? rt->ncpus : -EINVAL;
	free(rt->drops_seen);
	rt->drops_seen = calloc((size_t)DCC_DROP_NR * rt->ncpus, sizeof(uint64_t));
	return rt->drops_seen ? 0 : -ENOMEM;
}

int dcc_runtime__set_drops_fd(struct dcc_runtime *rt, int fd)
{
	int err = drops_seen_new(rt);

	if (!err)
		rt->drops_fd = fd;
	return err;
}

/* The offset of the `size`-byte variable `var` in the object's data section
 * `sec` (".rodata", ".bss": its BTF DATASEC), or -1. The loader's too. */
long rt_var_offset(struct bpf_object *obj, const char *sec, const char *var, size_t size)
{
	const struct btf *btf = bpf_object__btf(obj);
	const struct btf_var_secinfo *vsi;
	const struct btf_type *t;
	int id = btf ? btf__find_by_name_kind(btf, sec, BTF_KIND_DATASEC) : -1;

	if (id < 0)
		return -1;
	t = btf__type_by_id(btf, id);
	vsi = btf_var_secinfos(t);
	for (int i = 0; i < btf_vlen(t); i++, vsi++) {
		const struct btf_type *v = btf__type_by_id(btf, vsi->type);

		if (v && btf_is_var(v) && !strcmp(btf__name_by_offset(btf, v->name_off), var))
			return vsi->size == size ? (long)vsi->offset : -1;
	}
	return -1;
}

int rt_drops_bind_bss(struct dcc_runtime *rt, struct bpf_object *obj)
{
	struct bpf_map *m = bpf_object__find_map_by_name(obj, ".bss");
	long off = m ? rt_var_offset(obj, ".bss", DCC_BSS_DROPS, BSS_DROPS_SIZE) : -1;
	long page = sysconf(_SC_PAGESIZE);
	size_t len;
	void *mem;
	int err;

	if (off < 0)
		return 0; /* an object without drop sites */
	/* the kernel's copy: libbpf maps .bss for skeletons only */
	len = ((size_t)off + BSS_DROPS_SIZE + page - 1) & ~(size_t)(page - 1);
	mem = mmap(NULL, len, PROT_READ, MAP_SHARED, bpf_map__fd(m), 0);
	if (mem == MAP_FAILED) {
		err = -errno;
		rt_error(rt, "cannot map .bss for the drop counters: %s", strerror(-err));
		return err;
	}
	err = drops_seen_new(rt);
	if (err) {
		munmap(mem, len);
		return err;
	}
	if (rt->drops_map)
		munmap(rt->drops_map, rt->drops_len);
	rt->drops_map = mem;
	rt->drops_len = len;
	rt->drops_off = (size_t)off;
	return 0;
}

void rt_drops_free(struct dcc_runtime *rt)
{
	if (rt->drops_map)
		munmap(rt->drops_map, rt->drops_len);
	rt->drops_map = NULL;
	free(rt->drops_seen);
	rt->drops_seen = NULL;
}

/* The counters of kind, a CPU (row) each, into now: the rows read, 0 when
 * the object has no such counter, or a negative errno. */
static int read_kind(struct dcc_runtime *rt, uint32_t kind, uint64_t *now)
{
	if (rt->drops_map) {
		const uint64_t *rows = (const uint64_t *)((char *)rt->drops_map + rt->drops_off);
		int n = rt->ncpus < DCC_DROPS_NCPU ? rt->ncpus : DCC_DROPS_NCPU;

		for (int c = 0; c < n; c++)
			now[c] = __atomic_load_n(&rows[(size_t)c * DCC_DROP_NR + kind],
						 __ATOMIC_RELAXED);
		return n;
	}
	int err = bpf_map_lookup_elem(rt->drops_fd, &kind, now);

	/* a map with fewer counters than DCC_DROP_NR has no such drops */
	if (err == -ENOENT || (err < 0 && errno == ENOENT))
		return 0;
	if (err)
		return err < 0 ? err : -errno;
	return rt->ncpus;
}

/* "on CPU 3", or when CPUs share a row (more than DCC_DROPS_NCPU of them)
 * every CPU of the row: the count stays exact, its CPU does not */
static const char *cpu_words(struct dcc_runtime *rt, int c, char *buf, size_t len)
{
	if (!rt->drops_map || rt->ncpus <= DCC_DROPS_NCPU)
		snprintf(buf, len, "on CPU %d", c);
	else
		snprintf(buf, len, "on CPU %d (or %d + a multiple of %d)", c, c, DCC_DROPS_NCPU);
	return buf;
}

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

int dcc_runtime__report_drops(struct dcc_runtime *rt)
{
	uint64_t *now;
	int nmsg = 0;
	char cpu[64];

	if (rt->drops_fd < 0 && !rt->drops_map)
		return 0;
	now = calloc(rt->ncpus, sizeof(*now));
	if (!now)
		return -ENOMEM;
	for (uint32_t kind = 0; kind < DCC_DROP_NR; kind++) {
		uint64_t *seen = rt->drops_seen + (size_t)kind * rt->ncpus, sum = 0;
		int nrows = read_kind(rt, kind, now);

		if (nrows < 0) {
			free(now);
			return nrows;
		}
		for (int c = 0; c < nrows; c++) {
			uint64_t d = now[c] - seen[c];

			seen[c] = now[c];
			if (!d)
				continue;
			switch (kind) {
			case DCC_DROP_PRINCIPAL:
				rt_error(rt, "%llu drop%s %s", (unsigned long long)d, plural(d),
					 cpu_words(rt, c, cpu, sizeof(cpu)));
				nmsg++;
				break;
			case DCC_DROP_AGG:
				rt_error(rt, "%llu aggregation drop%s %s", (unsigned long long)d,
					 plural(d), cpu_words(rt, c, cpu, sizeof(cpu)));
				nmsg++;
				break;
			default:
				sum += d;
				break;
			}
		}
		if (!sum)
			continue;
		nmsg++;
		if (kind == DCC_DROP_DYNVAR)
			rt_error(rt, "%llu dynamic variable drop%s", (unsigned long long)sum,
				 plural(sum));
		else if (kind == DCC_DROP_ERROR)
			rt_error(rt, "%llu error%s in ERROR probe enabling", (unsigned long long)sum, plural(sum));
		else if (kind == DCC_DROP_SPEC)
			rt_error(rt, "%llu speculative drop%s", (unsigned long long)sum,
				 plural(sum));
		else if (kind == DCC_DROP_SPEC_BUSY)
			rt_error(rt, "%llu failed speculation%s (available buffer(s) still busy)",
				 (unsigned long long)sum, plural(sum));
		else if (kind == DCC_DROP_SPEC_UNAVAIL)
			rt_error(rt, "%llu failed speculation%s (no speculative buffer available)",
				 (unsigned long long)sum, plural(sum));
		else
			rt_error(rt, "%llu drop%s of kind %u", (unsigned long long)sum,
				 plural(sum), kind);
	}
	free(now);
	return nmsg;
}
