/*
 * The metadata section's builder (headers/dcc/abi.h): codegen adds probes,
 * attachments, clause layouts, actions, arguments, types, aggregations and
 * options as it goes; cg_meta_finish() lays them out into one blob.
 */
#ifndef DCC_CG_META_H
#define DCC_CG_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct agg;
struct probe;
struct cg_meta;
struct dcc_meta_type;
struct dcc_meta_member;

struct cg_meta *cg_meta_new(void);
void cg_meta_free(struct cg_meta *m);
uint32_t cg_meta_str(struct cg_meta *m, const char *s);
void cg_meta_probe(struct cg_meta *m, const struct probe *p);
void cg_meta_attach(struct cg_meta *m, const char *prog, uint32_t kind, const char *target,
		    uint32_t flags, uint64_t param);
uint32_t cg_meta_clause(struct cg_meta *m, uint32_t size, const char *loc); /* -> epid */
void cg_meta_action(struct cg_meta *m, uint32_t kind, const char *fmt);
int64_t cg_meta_type_find(struct cg_meta *m, const void *key);
uint32_t cg_meta_type_add(struct cg_meta *m, const void *key, const struct dcc_meta_type *t);
uint32_t cg_meta_member_add(struct cg_meta *m, const struct dcc_meta_member *mb);
uint32_t cg_meta_ntypes(struct cg_meta *m);
uint32_t cg_meta_nmembers(struct cg_meta *m);
void cg_meta_action_type(struct cg_meta *m, uint32_t type);
void cg_meta_arg(struct cg_meta *m, uint32_t offset, uint32_t size, uint16_t kind,
		 bool is_signed, const char *type);
void cg_meta_agg(struct cg_meta *m, const struct agg *g, const char *map, uint32_t key_size,
		 uint32_t val_size, const unsigned *strcaps);
void cg_meta_option(struct cg_meta *m, const char *name, const char *value);
void cg_meta_enablings(struct cg_meta *m, uint32_t n);
/* The compiler's name and version, and the kernel BTF's size and hash (0, 0: none read). */
void cg_meta_build(struct cg_meta *m, const char *build, uint32_t btf_size, uint64_t btf_hash);
void *cg_meta_finish(struct cg_meta *m, const char *script, uint32_t flags, size_t *size);

#endif
