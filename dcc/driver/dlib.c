/*
 * The D library (headers/d) turned into the declarations that precede a
 * script: parsed from its text, or copied from a tree parsed once in this
 * process (the fuzzer's struct dlib), which dlib_write_tree also writes out
 * as C when dcc is built (dlib_tree_gen; read back by dlib_prebuilt.c).
 */
#include "dlib.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "arena.h"
#include "ast.h"
#include "compile.h"
#include "diag.h"
#include "parse.h"
#include "types.h"
#include "dlib_gen.h"

enum { NLIB = sizeof(dlib_files) / sizeof(dlib_files[0]) };

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int dlib_parse(struct arena *ar, struct diag *dg, struct lib *lib)
{
	for (unsigned i = 0; i < NLIB; i++) {
		const char *text = dlib_files[i].text;
		size_t len = strlen(text);
		uint32_t file = diag_add_source(dg, dlib_files[i].name, text, len);
		struct parse_opts po = { .is_typedef = lib_typedef, .ctx = lib };
		struct node *p = parse_program(ar, dg, file, text, len, &po);
		if (!p || diag_errors(dg))
			return -1;
		for (struct node *n = p->list, *next; n; n = next) {
			next = n->next;
			n->next = NULL;
			if (lib->tail)
				lib->tail->next = n;
			else
				lib->head = n;
			lib->tail = n;
		}
	}
	return 0;
}

/* the parsers must know the typedef names D predefines and the library's
 * (to tell casts from parenthesized expressions) */
bool lib_typedef(void *ctx, const char *name)
{
	struct lib *lib = ctx;
	if (type_by_name(name))
		return true;
	if (lib->typedefs)
		return bsearch(&name, lib->typedefs, lib->ntypedefs, sizeof(*lib->typedefs),
			       cmp_name) != NULL;
	for (struct node *n = lib->head; n; n = n->next)
		if (n->kind == N_DECL && n->ival == ST_TYPEDEF)
			for (struct node *d = n->list; d; d = d->next)
				if (d->name && !strcmp(d->name, name))
					return true;
	return false;
}

/* The library parsed once (compile_dlib_parse): its tree, never given to
 * sema, which annotates and rewrites nodes, so each compile gets a copy.
 * The nodes lie in one array, so a copy is one memcpy and a pass that
 * moves the pointers between them (a node by node copy cost as much as
 * the parse it saves), into an array of the dlib's own: a fresh one per
 * compile cost as much again in page faults (megabytes, mapped anew). */
struct dlib {
	struct arena *ar;
	/* nodes[0] heads the top-level chain; read-only pages once made, so a
	 * compile that wrote to the cache instead of its copy would fault */
	struct node *nodes;
	size_t map_len;
	struct node *work;  /* the copy the current compile checks */
	size_t n;
	const char **typedefs; /* sorted, for lib_typedef */
	size_t ntypedefs;
};

static void list_typedefs(struct arena *ar, const struct node *head, const char ***names,
			  size_t *count)
{
	for (int pass = 0; pass < 2; pass++) {
		*count = 0;
		for (const struct node *n = head; n; n = n->next)
			if (n->kind == N_DECL && n->ival == ST_TYPEDEF)
				for (const struct node *x = n->list; x; x = x->next) {
					if (x->name && pass)
						(*names)[*count] = x->name;
					*count += x->name != NULL;
				}
		if (!pass)
			*names = arena_alloc(ar, (*count + 1) * sizeof(**names));
	}
	qsort(*names, *count, sizeof(**names), cmp_name);
}

static size_t count_chain(const struct node *n)
{
	size_t k = 0;
	for (; n; n = n->next)
		k += 1 + count_chain(n->a) + count_chain(n->b) + count_chain(n->c) +
		     count_chain(n->d) + count_chain(n->list);
	return k;
}

/* The chain from n and everything under it into d->nodes from *at on.
 * The parser shares no node between two parents, so the copy is a tree as
 * the parse was (count_chain counted each node once). */
static struct node *flatten(struct dlib *d, size_t *at, const struct node *n)
{
	struct node *head = NULL, **tail = &head;
	for (; n; n = n->next) {
		struct node *c = &d->nodes[(*at)++];
		memcpy(c, n, sizeof(*c));
		c->next = NULL;
		*tail = c;
		tail = &c->next;
		c->a = flatten(d, at, n->a);
		c->b = flatten(d, at, n->b);
		c->c = flatten(d, at, n->c);
		c->d = flatten(d, at, n->d);
		c->list = flatten(d, at, n->list);
	}
	return head;
}

struct dlib *compile_dlib_parse(void)
{
	struct diag *dg = diag_new(stderr);
	struct dlib *d = calloc(1, sizeof(*d));
	if (!d)
		abort();
	d->ar = arena_create();
	struct lib lib = { .ar = d->ar };
	/* file 0 is the script in a compile: the library's files, and so the
	 * locations in its nodes, are 1..NLIB there as here */
	diag_add_source(dg, "<script>", "", 0);
	if (dlib_parse(d->ar, dg, &lib))
		diag_bug_fatal(dg, "the D library does not parse");
	d->n = count_chain(lib.head);
	long page = sysconf(_SC_PAGESIZE);
	d->map_len = (d->n * sizeof(*d->nodes) + (size_t)page) & ~(size_t)(page - 1);
	d->nodes = mmap(NULL, d->map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			-1, 0);
	if (d->nodes == MAP_FAILED)
		abort();
	d->work = arena_alloc(d->ar, d->n * sizeof(*d->work));
	size_t at = 0;
	flatten(d, &at, lib.head);
	mprotect(d->nodes, d->map_len, PROT_READ);
	list_typedefs(d->ar, d->nodes, &d->typedefs, &d->ntypedefs);
	diag_free(dg);
	return d;
}

void compile_dlib_free(struct dlib *d)
{
	if (!d)
		return;
	munmap(d->nodes, d->map_len);
	arena_destroy(d->ar);
	free(d);
}

static void add_sources(struct diag *dg)
{
	for (unsigned i = 0; i < NLIB; i++)
		diag_add_source(dg, dlib_files[i].name, dlib_files[i].text,
				strlen(dlib_files[i].text));
}

/* The copy is the same for every compile: under the fuzzer its ~60,000
 * pointer tests each called the coverage hooks, to learn nothing (7% of
 * an input's time under ASan). */
#if defined(__clang__)
#define NO_FUZZ_COVERAGE __attribute__((no_sanitize("coverage")))
#else
#define NO_FUZZ_COVERAGE
#endif

/* What dlib_parse does, from the cached tree: the same sources in the same
 * order (the nodes' file numbers) and the typedef names the parser asks
 * about; the nodes come with dlib_attach, once the script has parsed (most
 * fuzzer inputs do not, and the copy was a sixth of an input's time). */
void dlib_copy(struct diag *dg, struct dlib *d, struct lib *lib)
{
	add_sources(dg);
	lib->typedefs = (const char *const *)d->typedefs;
	lib->ntypedefs = d->ntypedefs;
	lib->pending = d->n ? d : NULL;
}

/* A fresh copy of the cached nodes for lib (after dlib_copy). */
NO_FUZZ_COVERAGE
void dlib_attach(struct lib *lib)
{
	struct dlib *d = lib->pending;
	if (!d)
		return;
	lib->pending = NULL;
	struct node *to = d->work;
	memcpy(to, d->nodes, d->n * sizeof(*to));
	for (size_t i = 0; i < d->n; i++) {
		struct node *c = &to[i];
		struct node **ptrs[] = { &c->a, &c->b, &c->c, &c->d, &c->list, &c->next };
		for (unsigned k = 0; k < sizeof(ptrs) / sizeof(ptrs[0]); k++)
			if (*ptrs[k])
				*ptrs[k] = to + (*ptrs[k] - d->nodes);
	}
	lib->head = to;
	for (struct node *n = lib->head; n; n = n->next)
		lib->tail = n;
}

/*
 * The prebuilt tree: the nodes of a dlib as bytes, each pointer to a node
 * replaced by its index + 1 and each string by its offset + 1 in a pool
 * (0 stays NULL). The blob is the pool's size (8 bytes), the pool, then
 * each node as its 8-byte words less the zero ones: a 32-bit mask of the
 * words that are there, then those words. A node is 26 words of which ~8
 * are set, so the blob is 0.36 MB instead of 1.1: each page of it read is
 * a page fault at every compile. Nodes are written whole, so a field added
 * to struct node travels without a change here, unless it is a pointer:
 * NODE_PTRS and STR_PTRS name them all, and the writer refuses a node
 * whose sema fields are set (sema never ran on the tree).
 */
#define NODE_PTRS(X) X(a) X(b) X(c) X(d) X(list) X(next)
#define STR_PTRS(X) X(name) X(str) X(prov) X(mod) X(func) X(pname)

enum { NODE_WORDS = sizeof(struct node) / sizeof(uint64_t) };
_Static_assert(sizeof(struct node) % sizeof(uint64_t) == 0 && NODE_WORDS <= 32,
	       "a node is whole 8-byte words, one bit each in a 32-bit mask");

static void write_bytes(FILE *out, const void *p, size_t n, size_t *col)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++) {
		if (*col >= 76) {
			fputs("\"\n\t\"", out);
			*col = 0;
		}
		/* each byte an octal escape: the next character is never a
		 * digit that the escape could take for its own */
		char e[5], *q = e + sizeof(e);
		unsigned v = b[i];
		do
			*--q = (char)('0' + (v & 7));
		while (v >>= 3);
		*--q = '\\';
		fwrite(q, 1, (size_t)(e + sizeof(e) - q), out);
		*col += (size_t)(e + sizeof(e) - q);
	}
}

/* the bytes of a node's string: a string literal's may hold a NUL */
static size_t str_size(const struct node *n, const char *s)
{
	size_t len = strlen(s);
	if (s == n->str && n->slen > len)
		len = n->slen;
	return len + 1;
}

void dlib_write_tree(FILE *out, const struct dlib *d)
{
	uint64_t pool = 0;
	size_t col = 0;
	for (size_t i = 0; i < d->n; i++) {
		const struct node *n = &d->nodes[i];
#define W_SIZE(f) if (n->f) pool += str_size(n, n->f);
		STR_PTRS(W_SIZE)
	}
	fprintf(out, "/* generated by dlib_tree_gen: the D library's tree, %zu nodes */\n", d->n);
	fprintf(out, "static const size_t dlib_tree_n = %zu;\n", d->n);
	fputs("static const char dlib_tree_blob[] =\n\t\"", out);
	write_bytes(out, &pool, sizeof(pool), &col);
	for (size_t i = 0; i < d->n; i++) {
		const struct node *n = &d->nodes[i];
#define W_POOL(f) if (n->f) write_bytes(out, n->f, str_size(n, n->f), &col);
		STR_PTRS(W_POOL)
	}
	pool = 0;
	for (size_t i = 0; i < d->n; i++) {
		const struct node *n = &d->nodes[i];
		struct node c;
		memcpy(&c, n, sizeof(c));
		if (c.type || c.sym || c.id || c.bi || c.scratch)
			abort();
#define W_NODE(f) if (c.f) c.f = (struct node *)(uintptr_t)(n->f - d->nodes + 1);
#define W_STR(f) if (c.f) c.f = (const char *)(uintptr_t)(pool + 1), pool += str_size(n, n->f);
		NODE_PTRS(W_NODE)
		STR_PTRS(W_STR)
		uint64_t w[NODE_WORDS];
		uint32_t mask = 0;
		memcpy(w, &c, sizeof(w));
		for (int k = 0; k < NODE_WORDS; k++)
			mask |= (uint32_t)(w[k] != 0) << k;
		write_bytes(out, &mask, sizeof(mask), &col);
		for (int k = 0; k < NODE_WORDS; k++)
			if (w[k])
				write_bytes(out, &w[k], sizeof(w[k]), &col);
	}
	fputs("\";\n", out);
}

static _Noreturn void blob_short(struct diag *dg)
{
	diag_bug_fatal(dg, "the prebuilt D library is cut short");
}

void dlib_decode(struct diag *dg, struct lib *lib, const char *blob, size_t size, size_t n)
{
	add_sources(dg);
	uint64_t pool_size;
	if (size < sizeof(pool_size))
		blob_short(dg);
	memcpy(&pool_size, blob, sizeof(pool_size));
	if (pool_size > size - sizeof(pool_size))
		blob_short(dg);
	if (!n)
		return;
	/* the pool's offsets are + 1: 0 is NULL */
	const char *pool = blob + sizeof(pool_size) - 1;
	const char *p = blob + sizeof(pool_size) + pool_size, *end = blob + size;
	/* not the arena's: it would zero a megabyte that is written next.
	 * From malloc, which is the huge-page heap in dcc (hugeheap.c): a
	 * fresh 4 KiB page costs ~7 us at its first write in a virtual
	 * machine, and these 1.1 MB were 272 of them, ~2 ms of a compile */
	size_t len = n * sizeof(struct node);
	struct node *to = malloc(len);
	if (!to)
		diag_bug_fatal(dg, "no memory for the D library (%zu bytes)", len);
	for (size_t i = 0; i < n; i++) {
		struct node *c = &to[i];
		uint64_t w[NODE_WORDS];
		uint32_t mask;
		if ((size_t)(end - p) < sizeof(mask))
			blob_short(dg);
		memcpy(&mask, p, sizeof(mask));
		p += sizeof(mask);
		if ((size_t)(end - p) < sizeof(w[0]) * (size_t)__builtin_popcount(mask))
			blob_short(dg);
		for (int k = 0; k < NODE_WORDS; k++) {
			w[k] = 0;
			if (mask >> k & 1) {
				memcpy(&w[k], p, sizeof(w[k]));
				p += sizeof(w[k]);
			}
		}
		memcpy(c, w, sizeof(*c));
#define R_NODE(f) if (c->f) c->f = to + ((uintptr_t)c->f - 1);
#define R_STR(f) if (c->f) c->f = pool + (uintptr_t)c->f;
		NODE_PTRS(R_NODE)
		STR_PTRS(R_STR)
	}
	lib->owned = to;
	lib->head = to;
	for (struct node *c = lib->head; c; c = c->next)
		lib->tail = c;
	const char **names;
	list_typedefs(lib->ar, to, &names, &lib->ntypedefs);
	lib->typedefs = names;
}

void dlib_release(struct lib *lib)
{
	if (lib->owned)
		free(lib->owned);
	lib->owned = NULL;
}
