/*
 * Stack and address values to text: stack()/ustack() as DTrace prints them
 * (a newline, then one indented frame per line up to the first 0 PC), and
 * sym()/mod()/usym()/uaddr()/umod() values as one "module`symbol" word.
 */
#include <stdlib.h>
#include <string.h>
#include "rt.h"

static uint64_t word(const char *p, size_t i)
{
	uint64_t w;

	memcpy(&w, p + 8 * i, 8);
	return w;
}

bool rt_is_addr_kind(int kind)
{
	return kind >= DCC_K_SYM && kind <= DCC_K_UMOD;
}

bool rt_is_stack_kind(int kind)
{
	return kind == DCC_K_STACK || kind == DCC_K_USTACK;
}

void rt_addr_text(struct dcc_runtime *rt, const struct rt_val *v, char *buf, size_t n)
{
	switch (v->kind) {
	case DCC_K_SYM:
		rt_kaddr(rt, word(v->p, 0), RT_ADDR_SYM, buf, n);
		break;
	case DCC_K_MOD:
		rt_kaddr(rt, word(v->p, 0), RT_ADDR_MOD, buf, n);
		break;
	case DCC_K_USYM:
		rt_uaddr(rt, (int)word(v->p, 0), word(v->p, 1), RT_ADDR_SYM, buf, n);
		break;
	case DCC_K_UADDR:
		rt_uaddr(rt, (int)word(v->p, 0), word(v->p, 1), RT_ADDR_FULL, buf, n);
		break;
	case DCC_K_UMOD:
		rt_uaddr(rt, (int)word(v->p, 0), word(v->p, 1), RT_ADDR_MOD, buf, n);
		break;
	case DCC_K_INET:
		rt_inet_text(v->p, v->size, buf, n);
		break;
	default:
		snprintf(buf, n, "?");
		break;
	}
}

int rt_stack_frames(struct dcc_runtime *rt, const struct rt_val *v, char ***frames)
{
	bool user = v->kind == DCC_K_USTACK;
	size_t first = user ? 1 : 0, n = v->size / 8, k = 0;
	int pid = user ? (int)word(v->p, 0) : 0;
	char **f = calloc(n + 1, sizeof(*f));

	if (!f)
		return -1;
	for (size_t i = first; i < n; i++) {
		uint64_t pc = word(v->p, i);
		char buf[512];

		if (!pc)
			break;
		if (user)
			rt_uaddr(rt, pid, pc, RT_ADDR_FULL, buf, sizeof(buf));
		else
			rt_kaddr(rt, pc, RT_ADDR_FULL, buf, sizeof(buf));
		if (!(f[k] = strdup(buf)))
			break;
		k++;
	}
	*frames = f;
	return (int)k;
}

void rt_print_stack(struct dcc_runtime *rt, FILE *out, const struct rt_val *v,
		    const char *framefmt)
{
	char **f;
	int n = rt_stack_frames(rt, v, &f);

	fputc('\n', out);
	for (int i = 0; i < n; i++) {
		fprintf(out, "%*s", rt->stackindent, "");
		fprintf(out, framefmt ? framefmt : "%s", f[i]);
		fputc('\n', out);
		free(f[i]);
	}
	free(f);
}

/* Numeric order of the u64 words of two stack/address values. */
int rt_words_cmp(const char *l, const char *r, uint32_t size)
{
	for (uint32_t i = 0; i < size / 8; i++) {
		uint64_t a = word(l, i), b = word(r, i);

		if (a != b)
			return a < b ? -1 : 1;
	}
	return 0;
}
