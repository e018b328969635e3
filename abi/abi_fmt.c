/*
 * One printf conversion spec's bytes to its parts and class (abi_fmt.h):
 * the tokenizer sema's format checks and the runtime's printf engine share,
 * so both accept the same flags and length modifiers.
 */
#include <string.h>

#include <dcc/abi_fmt.h>

struct scan {
	const char *f;
	size_t n, i;
};

static char at(const struct scan *s)
{
	return s->i < s->n ? s->f[s->i] : 0;
}

static void add_flag(struct abi_fmt_spec *sp, char c)
{
	size_t n = strlen(sp->flags);

	if (!strchr(sp->flags, c) && n + 1 < sizeof(sp->flags)) {
		sp->flags[n] = c;
		sp->flags[n + 1] = 0;
	}
}

/* digits, '*', or nothing (-1); '?' (a pointer's width) too if q */
static int number(struct scan *s, bool q)
{
	long v = 0;
	char c = at(s);

	if (c == '*' || (q && c == '?')) {
		s->i++;
		return c == '*' ? ABI_FMT_STAR : 16;
	}
	if (c < '0' || c > '9')
		return -1;
	for (; (c = at(s)) >= '0' && c <= '9'; s->i++)
		if ((v = v * 10 + (c - '0')) > ABI_FMT_MAX_WIDTH)
			v = ABI_FMT_MAX_WIDTH;
	return (int)v;
}

static enum abi_fmt_class class_of(char c)
{
	if (c && strchr("diouxXcp", c))
		return ABI_FMT_INT;
	if (c && strchr("eEfgG", c))
		return ABI_FMT_FLOAT;
	switch (c) {
	case 's': case 'S': return ABI_FMT_STRING;
	case 'Y': case 'T': return ABI_FMT_TIME;
	case 'C': return ABI_FMT_CHAR;
	case 'a': return ABI_FMT_KADDR;
	case 'A': return ABI_FMT_UADDR;
	case 'k': return ABI_FMT_STACK;
	case '%': return ABI_FMT_PERCENT;
	}
	return ABI_FMT_BAD;
}

void abi_fmt_scan(const char *f, size_t n, struct abi_fmt_spec *sp)
{
	struct scan s = { f, n, 1 };
	size_t k = 0;
	char c;

	memset(sp, 0, sizeof(*sp));
	sp->width = sp->prec = -1;
	/* printa's '@' may also follow the width: "%-10@d" (then flags,
	 * width and precision may come again, as in "%@-10d") */
	for (int pass = 0; pass < 2 && at(&s) != '%'; pass++) {
		for (; (c = at(&s)) && strchr("-+ #0'@", c); s.i++) {
			if (c == '@')
				sp->agg = true;
			else
				add_flag(sp, c);
		}
		if ((c = at(&s)) == '*' || c == '?' || (c >= '0' && c <= '9'))
			sp->width = number(&s, true);
		if (at(&s) == '.') {
			s.i++;
			sp->prec = number(&s, false);
			if (sp->prec == -1)
				sp->prec = 0; /* "%.d" */
		}
		if (at(&s) != '@')
			break;
		sp->agg = true;
		s.i++;
	}
	for (; (c = at(&s)) && strchr("hlLjzt", c); s.i++)
		if (k + 1 < sizeof(sp->length))
			sp->length[k++] = c;
	sp->conv = at(&s);
	sp->cls = class_of(sp->conv);
	sp->len = s.i + (sp->conv != 0);
}
