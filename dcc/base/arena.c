/* The compiler's one allocator: zeroed chunks carved from large blocks. */
#include "arena.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct block {
	struct block *next;
	size_t used, size;
	_Alignas(16) unsigned char data[];
};

struct arena {
	struct block *head;
};

#define BLOCK_SIZE (64 * 1024)

struct arena *arena_create(void)
{
	struct arena *ar = calloc(1, sizeof(*ar));
	if (!ar)
		abort();
	return ar;
}

void arena_destroy(struct arena *ar)
{
	if (!ar)
		return;
	for (struct block *b = ar->head, *next; b; b = next) {
		next = b->next;
		free(b);
	}
	free(ar);
}

void *arena_alloc(struct arena *ar, size_t size)
{
	size = (size + 15) & ~(size_t)15;
	struct block *b = ar->head;
	if (!b || b->used + size > b->size) {
		size_t cap = size > BLOCK_SIZE ? size : BLOCK_SIZE;
		b = malloc(sizeof(*b) + cap);
		if (!b)
			abort();
		b->used = 0;
		b->size = cap;
		/* A huge one-off allocation goes behind the current block so the
		 * current block's free space is not wasted. */
		if (ar->head && cap > BLOCK_SIZE) {
			b->next = ar->head->next;
			ar->head->next = b;
		} else {
			b->next = ar->head;
			ar->head = b;
		}
	}
	void *p = b->data + b->used;
	b->used += size;
	memset(p, 0, size);
	return p;
}

char *arena_strndup(struct arena *ar, const char *s, size_t n)
{
	char *p = arena_alloc(ar, n + 1);
	memcpy(p, s, n);
	return p;
}

char *arena_strdup(struct arena *ar, const char *s)
{
	return arena_strndup(ar, s, strlen(s));
}

char *arena_printf(struct arena *ar, const char *fmt, ...)
{
	va_list ap, ap2;
	va_start(ap, fmt);
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *p = arena_alloc(ar, (size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, ap2);
	va_end(ap2);
	return p;
}
