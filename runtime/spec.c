/*
 * Speculations, resolved on the consumer side: records made under
 * speculate(id) are held per id until a commit() record prints them, in
 * order, as if they had just arrived, or a discard() record drops them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "rt.h"

struct spec_rec {
	struct spec_rec *next;
	size_t size;
	char data[];
};

struct spec_buf {
	uint32_t id;
	struct spec_rec *head, **tail;
};

static struct spec_buf *find(struct dcc_runtime *rt, uint32_t id, bool create)
{
	struct spec_buf *b;

	for (size_t i = 0; i < rt->nspecs; i++)
		if (rt->specs[i].id == id)
			return &rt->specs[i];
	if (!create)
		return NULL;
	b = realloc(rt->specs, (rt->nspecs + 1) * sizeof(*b));
	if (!b)
		return NULL;
	rt->specs = b;
	b = &rt->specs[rt->nspecs++];
	b->id = id;
	b->head = NULL;
	b->tail = &b->head;
	return b;
}

static void drop(struct dcc_runtime *rt, struct spec_buf *b)
{
	struct spec_rec *r = b->head, *next;

	for (; r; r = next) {
		next = r->next;
		free(r);
	}
	*b = rt->specs[--rt->nspecs];
}

int rt_spec_hold(struct dcc_runtime *rt, uint32_t id, const void *data, size_t size)
{
	struct spec_buf *b = find(rt, id, true);
	struct spec_rec *r;

	if (!b || !(r = malloc(sizeof(*r) + size)))
		return -ENOMEM;
	r->next = NULL;
	r->size = size;
	memcpy(r->data, data, size);
	*b->tail = r;
	b->tail = &r->next;
	return 0;
}

void rt_spec_commit(struct dcc_runtime *rt, uint32_t id)
{
	struct spec_buf *b = find(rt, id, false);
	struct spec_rec *r, *next;

	if (!b)
		return;
	/* detach the buffer first: replaying must not see it */
	r = b->head;
	*b = rt->specs[--rt->nspecs];
	for (; r; r = next) {
		struct dcc_rec_hdr h;

		next = r->next;
		memcpy(&h, r->data, sizeof(h));
		h.flags &= ~(DCC_REC_F_SPEC | (~0u << DCC_REC_SPEC_SHIFT));
		memcpy(r->data, &h, sizeof(h));
		rt_handle_record(rt, r->data, r->size);
		free(r);
	}
}

void rt_spec_discard(struct dcc_runtime *rt, uint32_t id)
{
	struct spec_buf *b = find(rt, id, false);

	if (b)
		drop(rt, b);
}

void rt_spec_free_all(struct dcc_runtime *rt)
{
	while (rt->nspecs)
		drop(rt, &rt->specs[0]);
	free(rt->specs);
	rt->specs = NULL;
}
