/*
 * Internal state of the consumer runtime, shared by its files: the checked
 * metadata, the options in force, the maps it reads, and the helpers that
 * turn record and key bytes into printed text.
 */
#ifndef DCC_RT_H
#define DCC_RT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <dcc/runtime.h>

struct ring_buffer;
struct symtab;

struct rt_agg {
	int fd;       /* the per-CPU hash map, -1 until bound */
	/* a keyless aggregation in a one-slot per-CPU array: its slot always
	 * exists, so it counts as present once it has held a value */
	bool array;
	/* the map's max_entries: a snapshot's batch need not hold more keys
	 * (and a small map is read without allocating for 4096) */
	uint32_t max_entries;
	bool seen;
	bool printed; /* by printa(): not printed again at the end */
	int64_t normal; /* normalize() factor; 0 or 1: none */
};

struct dcc_runtime {
	char *meta; /* our own copy, 8-byte aligned */
	size_t meta_size;
	const struct dcc_meta_header *hdr;
	const char *strs;
	const struct dcc_meta_probe *probes;
	const struct dcc_meta_clause *clauses;
	const struct dcc_meta_action *actions;
	const struct dcc_meta_field *args;
	const struct dcc_meta_agg *aggs;
	const struct dcc_meta_field *keys;
	const struct dcc_meta_option *opts;
	const struct dcc_meta_type *types;     /* print()'s */
	const struct dcc_meta_member *members;
	const struct dcc_meta_probe **probe_by_id;
	char **probe_tail; /* per probe: its probe line after the CPU */

	FILE *out, *err;
	FILE *out_orig; /* the output before freopen(), NULL if never reopened */
	char *progname;
	char **xnames, **xvalues; /* -x settings; value NULL for "name" alone */
	int nx;

	/* Options in force. */
	bool cli_quiet; /* -q: no setopt() undoes it */
	unsigned strsize; /* the option's value: rawbytes dumps a string's strsize + 1 bytes */
	bool quiet, rawbytes, aggsortkey, aggsortrev, classic, json, flowindent, aggzoom;
	bool aggpack, agghist, aggpercpu, noresolve;
	bool utf8; /* aggpack's blocks as UTF-8, else ASCII (-x encoding, $TERM) */
	bool testing; /* _DTRACE_TESTING set: no CPU and ID columns, as dtrace's test mode */
	int aggsortpos, aggsortkeypos, stackindent;
	uint64_t printsize; /* print() shows at most this many bytes; 0: all */
	int target; /* $target, for %A of a bare address */
	struct symtab *syms;

	bool header_done;
	int flow_indent;            /* -F: current indent */
	uint32_t flow_last_epid, flow_last_probe;
	bool exited;
	int exit_status;

	struct ring_buffer *rb;
	int ncpus;
	int drops_fd;         /* DCC_MAP_DROPS of an older object, or -1 */
	void *drops_map;      /* or .bss mapped read-only, DCC_BSS_DROPS at drops_off */
	size_t drops_len, drops_off;
	uint64_t *drops_seen; /* [DCC_DROP_NR * ncpus] */
	struct rt_agg *agg_state;

	bool bad_epid_warned;
	bool printa_warned;
	dcc_record_fn record_fn; /* records to the application, not printed */
	void *record_ctx;
	struct spec_buf *specs; /* speculations held, by id */
	size_t nspecs;
	uint8_t *clause_warned; /* per clause: a bad record was reported */
	uint8_t *action_warned; /* per action: a format problem was reported */
	/* held while a record is handled and while aggregations are read or
	 * printed through the API, so that another thread (dtrun's metrics
	 * server) may walk them while this one polls */
	pthread_mutex_t lock;
	bool json_header_due; /* JSON: the header line goes before the next line */
	/* bufpolicy (bufpolicy.c): its bytes a CPU, and each CPU's state */
	enum { RT_POLICY_SWITCH, RT_POLICY_RING, RT_POLICY_FILL } policy;
	uint64_t policy_bytes;
	struct cpu_ring *policy_cpus;
	uint32_t npolicy_cpus;
};

/* A value decoded from a record or an aggregation key. */
struct rt_val {
	int kind;        /* enum dcc_kind */
	uint32_t size;   /* D type size, or bytes of a string/blob */
	bool is_signed;
	int64_t i;       /* DCC_K_INT: sign- or zero-extended from size */
	const char *p;   /* DCC_K_STRING/BYTES: the bytes */
};

/* A printf conversion as written: %[flags][width][.prec][size]conv. */
struct pf_spec {
	char flags[8];
	int width;   /* -1 if none */
	int prec;    /* -1 if none */
	bool agg;    /* %@... */
	char conv;
};

/* meta.c */
const char *rt_str(const struct dcc_runtime *rt, uint32_t off);
/* Probes by id (an index sorted at dcc_runtime__new). */
int rt_probe_index(struct dcc_runtime *rt);
/* drops.c: read the drop counters of obj's .bss (DCC_BSS_DROPS); 0 without them */
long rt_var_offset(struct bpf_object *obj, const char *sec, const char *var, size_t size);
int rt_drops_bind_bss(struct dcc_runtime *rt, struct bpf_object *obj);
void rt_drops_free(struct dcc_runtime *rt);
const struct dcc_meta_probe *rt_probe(const struct dcc_runtime *rt, uint32_t id);

/* runtime.c */
/* Point the table pointers into rt->meta (after it is made or rebuilt). */
void rt_meta_point(struct dcc_runtime *rt);
/* setopt(): set a consumer option from now on; -EINVAL for an unknown name. */
int rt_setopt(struct dcc_runtime *rt, const char *name, const char *value);
void rt_error(struct dcc_runtime *rt, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* record.c */
void rt_field_val(const struct dcc_meta_field *f, const void *base, struct rt_val *v);

/* dcc_runtime__handle_record without the lock (speculations replay through it). */
int rt_handle_record(struct dcc_runtime *rt, const void *data, size_t size);

/* Run one action of a record, its text going to out. */
void rt_action(struct dcc_runtime *rt, FILE *out, const struct dcc_meta_clause *c, uint32_t ai,
	       const char *rec);

/* destr.c: system(), freopen(), ftruncate() */
void rt_destr_action(struct dcc_runtime *rt, FILE *out, const struct dcc_meta_clause *c,
		     uint32_t ai, const char *rec);
void rt_destr_free(struct dcc_runtime *rt);

/* api.c */
void rt_record_to_fn(struct dcc_runtime *rt, const struct dcc_rec_hdr *h,
		     const struct dcc_meta_clause *c, const char *rec, size_t size);

/* spec.c */
int rt_spec_hold(struct dcc_runtime *rt, uint32_t id, const void *data, size_t size);
/* bufpolicy=ring and fill (bufpolicy.c): take a record before it prints;
 * 1 when the policy keeps or drops it, 0 when it prints now. */
void rt_bufpolicy_init(struct dcc_runtime *rt);
int rt_bufpolicy_take(struct dcc_runtime *rt, const struct dcc_rec_hdr *h,
		      const struct dcc_meta_clause *c, const void *data, size_t size);
void rt_bufpolicy_flush(struct dcc_runtime *rt);
void rt_bufpolicy_free(struct dcc_runtime *rt);
/* exit()'s effect on the run's status (record.c) */
void rt_exit_action(struct dcc_runtime *rt, const struct dcc_meta_action *a, const char *rec);
void rt_spec_commit(struct dcc_runtime *rt, uint32_t id);
void rt_spec_discard(struct dcc_runtime *rt, uint32_t id);
void rt_spec_free_all(struct dcc_runtime *rt);

/* json.c */
#define RT_JSON_SCHEMA 1 /* docs/json.md: bump on any incompatible change */
void rt_json_string(FILE *out, const char *s, size_t n);
/* The header line, if due (first line of a file). */
void rt_json_header(struct dcc_runtime *rt, FILE *out);
void rt_json_agg_row(struct dcc_runtime *rt, FILE *out, const struct dcc_meta_agg *a,
		     const char *key, const int64_t *val);
void rt_json_record(struct dcc_runtime *rt, FILE *out, const struct dcc_rec_hdr *h,
		    const struct dcc_meta_clause *c, const char *rec, FILE *rows);

/* printf.c: print fmt with vals as arguments. agg_cb prints a %@ conversion
 * (n counts them from 0). Returns 0 or -EINVAL after reporting a mismatch. */
typedef void (*pf_agg_fn)(void *ctx, FILE *out, const struct pf_spec *sp, int n);
int rt_printf_format(struct dcc_runtime *rt, FILE *out, const char *fmt, const struct rt_val *vals,
		     int nvals, pf_agg_fn agg_cb, void *ctx, char *why, size_t whylen);
/* One integer conversion (d i u o x X c p) of v with the spec's flags. */
void rt_printf_int(FILE *out, const struct pf_spec *sp, int64_t v, uint32_t size, bool is_signed);
/* A DCC_K_FLOAT value: one e E f g G conversion with C's own formatting (a
 * float promoted to double, a long double with L), and the value itself. */
void rt_printf_float(FILE *out, const struct pf_spec *sp, const struct rt_val *v);
long double rt_float_value(const struct rt_val *v);

/* print.c: print()'s output and the check of its type table */
void rt_print(struct dcc_runtime *rt, FILE *out, uint32_t type, const struct rt_val *v);
int rt_types_check(const struct dcc_meta_header *h, const char *base, char *why,
		   size_t whylen);
int rt_print_check(const struct dcc_meta_header *h, const char *base,
		   const struct dcc_meta_action *a, char *why, size_t whylen);

/* trace.c */
/* The raw form of bytes: a header line, then 16 bytes a line with text. */
void rt_hexdump(FILE *out, const void *p, size_t n);
bool rt_is_char_array(const char *type);
void rt_trace_chars(struct dcc_runtime *rt, FILE *out, const struct rt_val *v);
void rt_trace(struct dcc_runtime *rt, FILE *out, const struct rt_val *v);
/* A blob as trace() or a key shows it: a string when it looks like one,
 * else a hex dump. width as DTrace passes it: -33 for trace(), -50 for keys
 * (left-aligned after two spaces), 16 for agghist/aggpack keys. */
void rt_print_bytes(struct dcc_runtime *rt, FILE *out, const char *p, size_t n, int width,
		    bool quiet);

/* sym.c */
enum rt_addr_form {
	RT_ADDR_FULL, /* module`symbol+0xoff */
	RT_ADDR_SYM,  /* module`symbol */
	RT_ADDR_MOD,  /* module */
};
void rt_kaddr(struct dcc_runtime *rt, uint64_t pc, enum rt_addr_form form, char *buf, size_t n);
void rt_uaddr(struct dcc_runtime *rt, int pid, uint64_t pc, enum rt_addr_form form, char *buf,
	      size_t n);
void rt_syms_free(struct dcc_runtime *rt);
/* The start of the kernel symbol holding pc (pc itself if none). */
uint64_t rt_ksym_start(struct dcc_runtime *rt, uint64_t pc);

/* stack.c */
bool rt_is_addr_kind(int kind);
/* inet.c: DCC_K_INET values as DTrace's inet_ntoa()/inet_ntoa6()/inet_ntop()/link_ntop()
 * text (at most 20 bytes as "xx:" each) */
#define RT_INET_LEN 64
/* size: the value's (24 or 32); a form whose bytes it cannot hold is "?" */
void rt_inet_text(const char *p, uint32_t size, char *buf, size_t n);
/* if v is DCC_K_INET: *out = a DCC_K_STRING of its text in buf (RT_INET_LEN bytes),
 * cut to strsize characters */
bool rt_inet_string(const struct rt_val *v, char *buf, unsigned strsize, struct rt_val *out);
bool rt_is_stack_kind(int kind);
void rt_addr_text(struct dcc_runtime *rt, const struct rt_val *v, char *buf, size_t n);
/* Frame texts of a stack value (malloc'd array of malloc'd strings). */
int rt_stack_frames(struct dcc_runtime *rt, const struct rt_val *v, char ***frames);
/* "\n", then each frame indented by stackindent and printed with framefmt. */
void rt_print_stack(struct dcc_runtime *rt, FILE *out, const struct rt_val *v,
		    const char *framefmt);
int rt_words_cmp(const char *l, const char *r, uint32_t size);

/* agg.c: one merged aggregation entry. */
struct agg_ent {
	char *key;      /* key_size bytes */
	int64_t *val;   /* merged words (see abi.h), nwords */
	int64_t *percpu; /* aggpercpu: ncpus unmerged values, else NULL */
};

struct agg_snap {
	const struct dcc_meta_agg *agg;
	int nwords;
	int ncpus;
	struct agg_ent *ents;
	size_t nents;
};

int rt_agg_nwords(const struct dcc_meta_agg *a);
int rt_agg_snapshot(struct dcc_runtime *rt, uint32_t id, struct agg_snap *s);
void rt_agg_snap_free(struct agg_snap *s);
int rt_agg_clear(struct dcc_runtime *rt, uint32_t id);
int rt_agg_trunc(struct dcc_runtime *rt, uint32_t id, int64_t keep);
/* The scalar a value sorts by (count/sum/min/max/avg/stddev), and the one it
 * prints as once divided by a normalize() factor. */
int64_t rt_agg_scalar(const struct dcc_meta_agg *a, const int64_t *val);
int64_t rt_agg_value(const struct dcc_meta_agg *a, const int64_t *val, int64_t normal);
bool rt_agg_is_hist(const struct dcc_meta_agg *a);
/* llquantize geometry: n as in abi.h (positive buckets incl. overflow). */

/* aggprint.c */
int rt_printa(struct dcc_runtime *rt, FILE *out, const char *fmt, const uint32_t *ids, int n);
/* Entries in printing order (the sort options apply), or, for trunc(), by
 * value then key ascending whatever the options. */
void rt_aggprint_sort(struct dcc_runtime *rt, const struct agg_snap *s, struct agg_ent **order);
void rt_aggprint_sort_plain(struct dcc_runtime *rt, const struct agg_snap *s,
			    struct agg_ent **order);

/* hist.c */
void rt_hist_print(struct dcc_runtime *rt, FILE *out, const struct dcc_meta_agg *a,
		   const int64_t *val, int64_t normal);
/* The rows a histogram shows, as label text and count; *rows is malloc'd.
 * Returns how many, or -1 without memory. */
struct hist_row {
	char label[32];
	int64_t count;
};
int rt_hist_rows(const struct dcc_meta_agg *a, const int64_t *val, struct hist_row **rows);
long double rt_hist_weight(const struct dcc_meta_agg *a, const int64_t *val, int64_t *zero);
/* One distribution row's bar and count: total is what a full bar stands for;
 * pos/neg say whether the block has counts of each sign (half bars if both). */
void rt_hist_bar(FILE *out, int64_t val, long double total, bool pos, bool neg, int64_t normal);
/* aggpack: the buckets one value uses (lquantize: all), to be widened to what
 * every key uses; the header over them; one key's packed row. */
void rt_hist_packed_bins(const struct dcc_meta_agg *a, const int64_t *val, int *minbin,
			 int *maxbin);
void rt_hist_packed_header(FILE *out, const struct dcc_meta_agg *a, int keywidth, int minbin,
			   int maxbin);
void rt_hist_packed_row(struct dcc_runtime *rt, FILE *out, const struct dcc_meta_agg *a,
			const int64_t *val, int minbin, int maxbin);

#endif
