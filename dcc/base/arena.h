/* One zeroed bump allocator for tokens, nodes, types and strings; freed once. */
#ifndef DCC_ARENA_H
#define DCC_ARENA_H

#include <stddef.h>

struct arena;

struct arena *arena_create(void);
void arena_destroy(struct arena *ar);
void *arena_alloc(struct arena *ar, size_t size); /* zeroed, 16-byte aligned; aborts on OOM */
char *arena_strndup(struct arena *ar, const char *s, size_t n);
char *arena_strdup(struct arena *ar, const char *s);
char *arena_printf(struct arena *ar, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define arena_new(ar, T) ((T *)arena_alloc((ar), sizeof(T)))

#endif
