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
/* Parameter types of a kernel function (FUNC name) or of a raw tracepoint
 * (typedef btf_trace_NAME, its first "__data" parameter dropped); returns
 * the count or -1 when BTF has no such thing. *ret gets the return type. */
int dbtf_func_args(struct dbtf *b, const char *func, struct type **types, int max,
		   struct type **ret);
int dbtf_rawtp_args(struct dbtf *b, const char *event, struct type **types, int max);
/* Call fn for every kernel function name BTF has. */
void dbtf_each_func(struct dbtf *b, void (*fn)(void *ctx, const char *name), void *ctx);

#endif
