/*
 * What a dcc object holds and needs, read without loading it (`dtrun --info`),
 * and the check dtrun makes before loading: that the running kernel has every
 * program type and helper the object's programs use.
 */
#ifndef DCC_LOADER_INFO_H
#define DCC_LOADER_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define INFO_MAX_HELPERS 256 /* helper ids a table row exists for */

struct info_prog {
	char *name, *section;
	int type;              /* enum bpf_prog_type */
	size_t insns;
	bool calls_subprogs;   /* calls functions of .text (their helpers count too) */
	uint8_t helpers[INFO_MAX_HELPERS]; /* 1: called (directly or in a .text function) */
};

struct info_map {
	char *name;
	int type;              /* enum bpf_map_type */
	uint32_t key_size, value_size, max_entries;
};

struct info {
	struct info_prog *progs;
	int nprogs;
	struct info_map *maps;
	int nmaps;
	char **kfuncs;         /* undefined functions the object calls */
	int nkfuncs;
	bool core;             /* CO-RE relocations: the kernel's BTF is needed */
	const void *meta;      /* .dcc.meta in the caller's buffer, NULL if absent */
	size_t meta_size;
};

/* Read obj (size bytes) with libbpf and libelf, loading nothing: 0, or -1 with why.
 * Unless trusted (made by this process's compiler), libbpf opens it in a
 * child first (open_probe.c). */
int info_scan(const void *obj, size_t size, bool trusted, struct info *in, char *why,
	      size_t whylen);
/* Only the programs (name, section, type, instructions, helpers), kfuncs,
 * CO-RE and .dcc.meta, from libelf: no libbpf, no child, no maps. What
 * dtrun's check of the kernel needs while the child tries libbpf's open.
 * 0, or -1 with why. */
int info_scan_progs(const void *obj, size_t size, struct info *in, char *why, size_t whylen);
void info_free(struct info *in);

/* The name <linux/bpf.h> gives helper id ("map_lookup_elem"), NULL if unknown. */
const char *info_helper_name(unsigned id);

/* Print what in holds, as text or JSON, for the object named path. */
void info_print(FILE *out, const struct info *in, const char *path, bool json);

/* 0 when the running kernel has every program type and helper in needs, or
 * cannot tell (probing fails: not root); else 1 after one sentence on
 * stderr naming what is missing ("PROG: ..."). *loads: the test programs it
 * loaded into the kernel (for dtrun -v's timing). */
int info_check_kernel(const struct info *in, const char *prog, const char *obj_name,
		      int *loads);

/* dtrun's long options, looked for before the dtrace-like ones: --help,
 * --version, --info[=json] [-f json] OBJ. Returns -1 when none is given
 * (go on), else the exit status. */
int info_long_options(int argc, char **argv);

#endif
