/*
 * The object's phase variable (DCC_BSS_PHASE in .bss), DTrace's activity
 * state: the loader sets it to "loaded" before load, so that no probe's
 * clauses run before BEGIN's have, and to "tracing" once BEGIN is done,
 * unless BEGIN called exit(). Objects without the variable (no BEGIN, no
 * exit()) trace as soon as they are attached.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <dcc/abi.h>
#include "internal.h"

/* The phase variable's offset in .bss, or -1. */
static long phase_off(struct bpf_object *obj, struct bpf_map **map)
{
	*map = bpf_object__find_map_by_name(obj, ".bss");
	return *map ? rt_var_offset(obj, ".bss", DCC_BSS_PHASE, sizeof(uint64_t)) : -1;
}

int loader_phase_loaded(struct bpf_object *obj)
{
	struct bpf_map *map;
	long off = phase_off(obj, &map);
	size_t sz = 0;
	const void *init = off >= 0 ? bpf_map__initial_value(map, &sz) : NULL;
	uint64_t v = DCC_PHASE_LOADED;
	char *copy;
	int err;

	if (!init || (size_t)off + sizeof(v) > sz)
		return 0;
	copy = malloc(sz);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, init, sz);
	memcpy(copy + off, &v, sizeof(v));
	err = bpf_map__set_initial_value(map, copy, sz);
	free(copy);
	return err;
}

void loader_phase_tracing(struct bpf_object *obj)
{
	struct bpf_map *map;
	long off = phase_off(obj, &map);
	size_t len;
	char *mem;

	if (off < 0 || bpf_map__fd(map) < 0)
		return;
	/* The kernel's copy, mapped (libbpf maps it for skeletons only), so
	 * that the change is one atomic store among the programs' accesses. */
	len = ((size_t)off + sizeof(uint64_t) + 4095) & ~(size_t)4095;
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, bpf_map__fd(map), 0);
	if (mem == MAP_FAILED)
		return;
	uint64_t loaded = DCC_PHASE_LOADED;

	__atomic_compare_exchange_n((uint64_t *)(mem + off), &loaded, DCC_PHASE_TRACING, false,
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	munmap(mem, len);
}
