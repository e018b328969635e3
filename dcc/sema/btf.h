/*
 * Kernel types from BTF (/sys/kernel/btf/vmlinux or --btf FILE) as struct
 * type. The only compiler file that sees libbpf's BTF API is btf.c.
 */
#ifndef DCC_BTF_H
#define DCC_BTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "types.h"

struct arena;
struct sema_btf;

/* path NULL: the running kernel's. On failure returns NULL with a reason. */
struct sema_btf *sema_btf_open(struct arena *ar, const char *path, char *why, size_t whylen);
void sema_btf_close(struct sema_btf *b);
/* Forget the types made so far and make new ones in ar: the parsed BTF is
 * kept for another compile in the same process (the fuzzer's), whose arena
 * is not the one the old types lived in. */
void sema_btf_rebind(struct sema_btf *b, struct arena *ar);
const char *sema_btf_path(const struct sema_btf *b);
/* The BTF's identity: its size in bytes and the FNV-1a 64 hash of them. */
void sema_btf_identity(const struct sema_btf *b, uint32_t *size, uint64_t *hash);
struct type *sema_btf_struct(struct sema_btf *b, const char *tag, bool is_union);
struct type *sema_btf_typedef(struct sema_btf *b, const char *name);
/* Fill in a kernel struct's members (they are read lazily); 0 or -1. */
int sema_btf_complete(struct sema_btf *b, struct type *t);
/* Parameter types of a kernel function (FUNC name) or of a raw tracepoint
 * (typedef btf_trace_NAME, its first "__data" parameter dropped); returns
 * the count or -1 when BTF has no such thing. *ret gets the return type. */
int sema_btf_func_args(struct sema_btf *b, const char *func, struct type **types, int max,
			 struct type **ret);
int sema_btf_rawtp_args(struct sema_btf *b, const char *event, struct type **types, int max);
/* Call fn for every kernel function name BTF has. */
void sema_btf_each_func(struct sema_btf *b, void (*fn)(void *ctx, const char *name), void *ctx);

#endif
