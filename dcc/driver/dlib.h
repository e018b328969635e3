/* The D library (headers/d) as a tree: parsed from its text, copied from a
 * tree parsed once in this process (struct dlib), or decoded from the tree
 * parsed when dcc was built (dlib_tree_gen). The driver's, not exported. */
#ifndef DCC_DLIB_H
#define DCC_DLIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct arena;
struct diag;
struct node;
struct sema_btf;

/* The D library's declarations before a script, and what the parser asks. */
struct lib {
	struct node *head, *tail;
	/* the kernel's BTF, opened by the parser's first question about a
	 * kernel typedef and handed on to sema */
	struct arena *ar;
	const char *btf_path;
	struct sema_btf *btf;
	bool btf_tried;
	/* the library's typedef names, sorted (the parser asks about every
	 * identifier that may start a cast); NULL: walk head */
	const char *const *typedefs;
	size_t ntypedefs;
	struct node *owned; /* the decoded nodes (dlib_prebuilt): dlib_release */
	struct dlib *pending; /* dlib_copy's nodes, not copied yet: dlib_attach */
};

/* the parsers' is_typedef: D's predefined type names and the library's */
bool lib_typedef(void *ctx, const char *name);

/* The library's files, each registered with dg (file numbers 1..N after
 * the script's 0), parsed into lib. Returns -1 on a parse error. */
int dlib_parse(struct arena *ar, struct diag *dg, struct lib *lib);

/* The library's files registered with dg as dlib_parse does, and lib given
 * a copy of the tree parsed when dcc was built (lib->owned). */
void dlib_prebuilt(struct diag *dg, struct lib *lib);

/* frees what dlib_prebuilt made, once the compile is done with the tree */
void dlib_release(struct lib *lib);

struct dlib;
/* The same from a tree parsed in this process (compile_dlib_parse): the
 * sources and typedef names at once, the nodes (head, tail) only when
 * dlib_attach is called, after the script has parsed. */
void dlib_copy(struct diag *dg, struct dlib *d, struct lib *lib);
void dlib_attach(struct lib *lib);

/* dlib_tree_gen: the tree of d as C source, a blob of size bytes holding
 * n nodes that dlib_decode turns back into the tree (dlib_prebuilt). */
void dlib_write_tree(FILE *out, const struct dlib *d);
void dlib_decode(struct diag *dg, struct lib *lib, const char *blob, size_t size, size_t n);

#endif
