/*
 * curcpu's data: DCC_MAP_CPUINFO holds one struct dcc_cpuinfo per CPU (a
 * per-CPU array of one entry), filled here from sysfs once the object is
 * loaded, before any probe is attached. A CPU's physical package is
 * topology/physical_package_id; its NUMA node is the nodeN link in its
 * sysfs directory.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <dcc/abi.h>
#include "internal.h"

static int32_t package_of(int cpu)
{
	char path[96];
	int v = -1;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id",
		 cpu);
	FILE *f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static int32_t node_of(int cpu)
{
	char path[64];
	struct dirent *e;
	int node = 0;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
	DIR *d = opendir(path);
	while (d && (e = readdir(d)))
		if (!strncmp(e->d_name, "node", 4) && sscanf(e->d_name + 4, "%d", &node) == 1)
			break;
	if (d)
		closedir(d);
	return node;
}

int loader_fill_cpuinfo(struct bpf_object *obj, FILE *errf, const char *prog)
{
	struct bpf_map *map = bpf_object__find_map_by_name(obj, DCC_MAP_CPUINFO);
	if (!map)
		return 0;
	int ncpus = libbpf_num_possible_cpus();
	if (ncpus <= 0)
		return ncpus ? ncpus : -EINVAL;
	struct dcc_cpuinfo *v = calloc((size_t)ncpus, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (int c = 0; c < ncpus; c++)
		v[c] = (struct dcc_cpuinfo){ .cpu_id = c, .cpu_pset = -1,
					     .cpu_chip = package_of(c), .cpu_lgrp = node_of(c) };
	uint32_t key = 0;
	int err = bpf_map_update_elem(bpf_map__fd(map), &key, v, BPF_ANY) ? -errno : 0;
	free(v);
	if (err)
		fprintf(errf, "%s: cannot fill curcpu's map: %s\n", prog, strerror(-err));
	return err;
}
