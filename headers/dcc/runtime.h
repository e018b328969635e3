/*
 * The dcc consumer runtime: reads an object's metadata, drains its ring
 * buffer, formats records as DTrace does, keeps and prints aggregations.
 * Used by dtrun and `dcc run`, and by C applications embedding a skeleton.
 * int functions return 0 (or a count) or a negative errno; pointer functions
 * return NULL and set errno. The runtime never exits the process.
 *
 * Threads: a runtime is driven from one thread (poll, handle_record, the
 * setters), except that dcc_runtime__agg_walk, dcc_runtime__agg_clear,
 * dcc_runtime__agg_trunc, dcc_runtime__print_aggs, dcc_runtime__printa and
 * dcc_runtime__output_reopened may be called from
 * another thread while it polls: they and the handling of each record hold
 * the runtime's lock. dcc_runtime__agg_key_text and dcc_agg_bucket_bounds
 * take no lock; call the first from an agg_walk callback.
 */
#ifndef DCC_RUNTIME_H
#define DCC_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "abi.h"

#ifdef __cplusplus
extern "C" {
#endif

struct bpf_object;
struct dcc_runtime;

struct dcc_runtime_opts {
	size_t sz;            /* sizeof(struct dcc_runtime_opts) */
	FILE *out;            /* trace output; NULL = stdout */
	FILE *err;            /* messages; NULL = stderr */
	const char *progname; /* prefix of messages ("dtrun"); NULL = "dcc" */
	/* -x name[=value] settings; they override the object's pragmas. */
	const char *const *xopts;
	int nxopts;
	bool quiet;           /* -q */
};

/*
 * Find and check the metadata section of a dcc object held in memory.
 * On failure returns a negative errno and writes a one-line reason
 * ("not an ELF file", "no .dcc.meta section: not a dcc object",
 * "metadata version 7 is not supported (this runtime reads 1)", ...).
 */
int dcc_meta_from_elf(const void *elf, size_t size, const void **meta, size_t *meta_size,
		      char *why, size_t whylen);
/* Bounds-check every table and string of a metadata blob. */
int dcc_meta_check(const void *meta, size_t size, char *why, size_t whylen);

struct dcc_runtime *dcc_runtime__new(const void *meta, size_t size,
				     const struct dcc_runtime_opts *opts);
void dcc_runtime__free(struct dcc_runtime *rt);

/* The checked metadata and its strings, for the loader. */
const struct dcc_meta_header *dcc_runtime__meta(const struct dcc_runtime *rt);
const char *dcc_runtime__str(const struct dcc_runtime *rt, uint32_t off);
/* Effective option value: -x first, then the object's pragmas. "" for a set
 * boolean, NULL when unset. */
const char *dcc_runtime__option(const struct dcc_runtime *rt, const char *name);

/* The stream messages go to (opts->err, or stderr). */
FILE *dcc_runtime__err(const struct dcc_runtime *rt);

/* After bpf_object__load(): find the ring buffer, drop and aggregation maps. */
int dcc_runtime__bind(struct dcc_runtime *rt, struct bpf_object *obj);
/* Wait up to timeout_ms (0: don't wait) for records and handle all there are.
 * Returns the number handled, or -EINTR when a signal interrupted the wait. */
int dcc_runtime__poll(struct dcc_runtime *rt, int timeout_ms);
/* Handle one record (as the ring buffer delivers it). */
int dcc_runtime__handle_record(struct dcc_runtime *rt, const void *data, size_t size);
/* True once an exit() record has been handled; *status gets its value. */
bool dcc_runtime__exited(const struct dcc_runtime *rt, int *status);
/* Print drop counts that grew since the last call ("dtrun: 3 drops on CPU 1"). */
int dcc_runtime__report_drops(struct dcc_runtime *rt);
/* bufpolicy=ring: print the records each CPU kept, once tracing has stopped
 * (after END's records are read); nothing for other policies. */
void dcc_runtime__flush_ring(struct dcc_runtime *rt);
/* The end of the trace: "\n" then every non-empty aggregation not yet
 * printed by printa(), in DTrace's order and format. */
int dcc_runtime__print_aggs(struct dcc_runtime *rt);
/* The trace output (opts->out) now writes to a new file (dtrun reopens -o's
 * file on SIGHUP): with -x oformat=json its header line goes first again. */
void dcc_runtime__output_reopened(struct dcc_runtime *rt);
/* ^C or SIGTERM stopped the trace: dtrace's newline after the terminal's
 * "^C", except in its test mode (_DTRACE_TESTING) and in JSON. */
void dcc_runtime__interrupted(struct dcc_runtime *rt);

/*
 * Binding maps one by one, for tests and for applications that open maps
 * themselves (dcc_runtime__bind does all of these from a bpf_object).
 */
int dcc_runtime__set_ringbuf_fd(struct dcc_runtime *rt, int fd);
int dcc_runtime__set_drops_fd(struct dcc_runtime *rt, int fd);
/* agg_id indexes dcc_meta_agg; fd is its BPF_MAP_TYPE_PERCPU_HASH map. */
int dcc_runtime__set_agg_fd(struct dcc_runtime *rt, uint32_t agg_id, int fd);
/* $target's pid: %A of a bare address resolves in it. */
void dcc_runtime__set_target(struct dcc_runtime *rt, int pid);
/* Probes made when the object runs (the pid provider's functions, which the
 * loader finds in the process): records with these ids print these names.
 * Called before any record is handled; ids not already in the object's
 * table. 0 or -ENOMEM. */
struct dcc_probe_desc {
	uint32_t id;
	const char *prov, *mod, *func, *name;
};
int dcc_runtime__add_probes(struct dcc_runtime *rt, const struct dcc_probe_desc *v, size_t n);
/* printa(@agg) in the default form, now, to the trace output. */
int dcc_runtime__printa(struct dcc_runtime *rt, uint32_t agg_id);

/*
 * For C applications that want the data rather than DTrace's text.
 *
 * A record's values: argument n of the record's action number `action`
 * (counted within its clause). Integers come back sign- or zero-extended in
 * *ival; strings and byte values as a pointer into the record in *sval and
 * their length (up to the NUL) in *slen; floating-point values (DCC_K_FLOAT)
 * as their bytes in *sval, 4, 8 or 16 of them in *slen. Returns the enum
 * dcc_kind or a negative errno.
 */
int dcc_runtime__record_arg(const struct dcc_runtime *rt, const void *rec, size_t size,
			    uint32_t action, uint32_t n, int64_t *ival, const char **sval,
			    size_t *slen);
/* Records go to fn instead of being printed (fn NULL: printed again).
 * exit() records still set dcc_runtime__exited(). */
typedef void (*dcc_record_fn)(void *ctx, const struct dcc_rec_hdr *hdr, const void *rec,
			      size_t size);
void dcc_runtime__set_record_fn(struct dcc_runtime *rt, dcc_record_fn fn, void *ctx);

/* One aggregation entry, merged across CPUs. */
struct dcc_agg_entry {
	const struct dcc_meta_agg *agg;
	const void *key;     /* agg->key_size bytes, laid out by its key fields */
	int64_t value;       /* count/sum/min/max/avg/stddev as printed (normalized) */
	const int64_t *data; /* the merged words as abi.h lays them out */
	uint32_t nwords;
};
typedef int (*dcc_agg_fn)(void *ctx, const struct dcc_agg_entry *e);
/* Each entry of aggregation agg_id in printing order; fn returning non-zero
 * stops the walk and is returned. */
int dcc_runtime__agg_walk(struct dcc_runtime *rt, uint32_t agg_id, dcc_agg_fn fn, void *ctx);
/* D's clear(@agg) (values to zero, keys kept) and trunc(@agg, keep)
 * (keep > 0: the keep entries of largest value stay, the last ones in
 * printing order; keep < 0: the -keep smallest; 0: all removed), on
 * aggregation agg_id, whenever the application likes. 0, -ENOENT for no such aggregation, or a map error. */
int dcc_runtime__agg_clear(struct dcc_runtime *rt, uint32_t agg_id);
int dcc_runtime__agg_trunc(struct dcc_runtime *rt, uint32_t agg_id, int64_t keep);
/* Key element k of an entry as text, NUL-terminated in buf: an integer in
 * decimal, a string as it is, an address as printa() names it
 * (module`symbol+0x10), a stack's frames one a line, an address of inet_*()
 * as its text, other bytes in hex. Returns the length the whole text takes
 * (as snprintf does) or -ENOENT for no such key element. */
int dcc_runtime__agg_key_text(struct dcc_runtime *rt, const struct dcc_agg_entry *e, uint32_t k,
			      char *buf, size_t size);
/* A histogram's buckets (quantize, lquantize, llquantize), in ascending
 * order of value, as e->data holds their counts: up to n inclusive upper
 * bounds into upper[] (INT64_MAX for the last, unbounded bucket). Returns the
 * number of buckets, -EINVAL for another function, -ENOMEM. */
int dcc_agg_bucket_bounds(const struct dcc_meta_agg *a, int64_t *upper, int n);

#ifdef __cplusplus
}
#endif

#endif
