/* The whole compiler as one call: D source -> BPF object bytes. */
#ifndef DCC_COMPILE_H
#define DCC_COMPILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct compile_opts {
	const char *name;        /* file name in diagnostics and the debug info */
	const char *text;
	size_t len;
	const char *label;       /* "hello.d" or the -n text, for "matched N probes" */
	/* the script's name in the object (metadata, clause locations, debug
	 * info); NULL: name. An object written to a file gets the base name,
	 * so its bytes do not depend on the directory it was compiled from. */
	const char *obj_name;
	/* the script as written, before cpp, embedded in the debug info (its
	 * lines are .BTF's line text); NULL: text */
	const char *source;
	size_t source_len;
	bool description;        /* -n: bare probe descriptions allowed */
	const char *const *macro_argv; /* $0 (script name), $1.. */
	int macro_argc;
	bool zdefs;              /* -Z */
	bool nolibs;             /* -x nolibs: no D library */
	const char *const *xopts; /* -x settings, "name[=value]": options set before the script's */
	int nxopts;
	const char *btf_path;    /* --btf FILE: kernel types of another kernel */
	bool check_only;         /* -e: stop after semantic checks */
	bool list;               /* -l: list the probes the descriptions match */
	/* -l with -p/-c: lists USDT descriptions (sema_opts' list_usdt) */
	int (*list_usdt)(void *ctx, const char *desc, uint32_t pid, FILE *out);
	void *list_ctx;
	bool dump_tokens, dump_ast, dump_ir;
	int emit;                /* --emit: 0 the object, 1 LLVM IR, 2 BPF assembly (as text in *obj) */
	bool verbose;            /* -v: the time each stage took, on stderr */
	FILE *errs;              /* diagnostics; NULL: stderr */
	/* the kernel's BTF already open (borrowed, not closed): a process that
	 * compiles many sources (the fuzzer) parses it once; NULL: opened when
	 * a kernel type is first needed */
	struct sema_btf *btf;
	/* the D library already parsed (compile_dlib_parse; borrowed): each
	 * compile starts from a copy of its tree, which the dlib holds (one
	 * compile at a time); NULL: parsed here */
	struct dlib *dlib;
	/* without dlib: parse the D library's text rather than decode the tree
	 * parsed when dcc was built (tests compare the two) */
	bool parse_dlib;
};

/* The D library (headers/d) parsed once, for a process that compiles many
 * sources (the fuzzer): what compile_source would parse before each. */
struct dlib;
struct dlib *compile_dlib_parse(void);
void compile_dlib_free(struct dlib *d);

/* Returns 0 with *obj (malloc'd) and *size set, 1 on compile errors (already
 * printed on stderr), 0 with *obj NULL after a dump or check-only run. */
int compile_source(const struct compile_opts *o, void **obj, size_t *size);

#endif
