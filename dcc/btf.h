/*
 * Kernel types from BTF (/sys/kernel/btf/vmlinux or --btf FILE) as struct
 * type. The only compiler file that sees libbpf's BTF API is btf.c.
 */
#ifndef DCC_BTF_H
#define DCC_BTF_H

#include <stdbool.h>
#include <stddef.h>
#include "types.h"

struct arena;
struct dbtf;

/* path NULL: the running kernel's. On failure returns NULL with a reason. */
struct dbtf *dbtf_open(struct arena *ar, const char *path, char *why, size_t whylen);
void dbtf_close(struct dbtf *b);
const char *dbtf_path(const struct dbtf *b);
struct type *dbtf_struct(struct dbtf *b, const char *tag, bool is_union);
struct type *dbtf_typedef(struct dbtf *b, const char *name);
/* Fill in a kernel struct's members (they are read lazily); 0 or -1. */
int dbtf_complete(struct dbtf *b, struct type *t);

#endif
