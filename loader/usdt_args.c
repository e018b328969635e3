/*
 * A USDT note's argument specifications (<sys/sdt.h>'s x86-64 operands:
 * "-4@%edi 8@-16(%rbp) 8@$5 -8@counter(%rip)") as the BPF program decodes
 * them (abi.h's struct dcc_usdt_spec): each argument a size (negative:
 * signed), then a register, a constant or memory at a register plus a
 * displacement.
 *
 * %rip-relative memory is how gcc passes a global at -O2: "counter(%rip)",
 * "8+pair(%rip)", the symbol's address in the file plus a displacement. The
 * operand is no instruction's, so its %rip can only mean the probe's own
 * address, which is the uprobe's saved ip when it fires: the operand
 * becomes memory at ip + (symbol + displacement - the note's address), a
 * difference the file's load address does not change (the spec serves any
 * process mapping the file, a PIE or a library). A bare "OFF(%rip)" is
 * memory at the probe's address plus OFF.
 */
#include "internal.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "dcc/abi.h"

/* x86-64's struct pt_regs, by register number in the table below */
static const struct reg {
	const char *names[4]; /* 64-, 32-, 16-, 8-bit */
	uint16_t off;
} regs[] = {
	{ { "rax", "eax", "ax", "al" }, 80 },	  { { "rbx", "ebx", "bx", "bl" }, 40 },
	{ { "rcx", "ecx", "cx", "cl" }, 88 },	  { { "rdx", "edx", "dx", "dl" }, 96 },
	{ { "rsi", "esi", "si", "sil" }, 104 },	  { { "rdi", "edi", "di", "dil" }, 112 },
	{ { "rbp", "ebp", "bp", "bpl" }, 32 },	  { { "rsp", "esp", "sp", "spl" }, 152 },
	{ { "r8", "r8d", "r8w", "r8b" }, 72 },	  { { "r9", "r9d", "r9w", "r9b" }, 64 },
	{ { "r10", "r10d", "r10w", "r10b" }, 56 }, { { "r11", "r11d", "r11w", "r11b" }, 48 },
	{ { "r12", "r12d", "r12w", "r12b" }, 24 }, { { "r13", "r13d", "r13w", "r13b" }, 16 },
	{ { "r14", "r14d", "r14w", "r14b" }, 8 },  { { "r15", "r15d", "r15w", "r15b" }, 0 },
};
/* the saved instruction pointer: the probe's address when a uprobe fires */
enum { PT_REGS_IP = 128 };

/* "%edi" at s (len bytes): its pt_regs offset, or -1 */
static int reg_off(const char *s, size_t len)
{
	if (len < 2 || s[0] != '%')
		return -1;
	for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++)
		for (int w = 0; w < 4; w++)
			if (strlen(regs[i].names[w]) == len - 1 &&
			    !strncmp(regs[i].names[w], s + 1, len - 1))
				return regs[i].off;
	return -1;
}

/* The displacement of a %rip-relative operand, "sym", "8+sym", "sym+8",
 * "sym-8" or "16", from s to end, as an offset from the note's address;
 * 0 or -1 (no symbol table, or a symbol it does not have). */
static int rip_disp(const char *s, const char *end, const struct usdt_loc *loc, int64_t *disp)
{
	int64_t sum = 0;
	bool sym = false;

	for (const char *p = s; p < end;) {
		int neg = 0;
		if (*p == '+' || *p == '-') /* the operator before a term */
			neg = *p++ == '-';
		else if (p > s)
			return -1;
		size_t n = strcspn(p, "+-(");
		char term[128];
		if (!n || n >= sizeof(term) || p + n > end)
			return -1;
		memcpy(term, p, n);
		term[n] = 0;
		char *tend;
		int64_t v = strtoll(term, &tend, 0);
		if (*tend) { /* a symbol: its address, once, added */
			uint64_t addr;
			if (sym || neg || !loc || !loc->sym_addr || loc->sym_addr(loc->ctx, term, &addr))
				return -1;
			sym = true;
			v = (int64_t)(addr - loc->pc);
		}
		sum += neg ? -v : v;
		p += n;
	}
	*disp = sum;
	return 0;
}

/* One operand "N@OPERAND" of len bytes into *a; 0 or -1. */
static int parse_one(const char *s, size_t len, const struct usdt_loc *loc,
		     struct dcc_usdt_arg *a)
{
	char buf[128], *at, *end;
	long size = 8;

	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = 0;
	at = strchr(buf, '@');
	char *op = buf;
	if (at) {
		size = strtol(buf, &end, 10);
		if (end != at)
			return -1;
		op = at + 1;
	}
	long mag = size < 0 ? -size : size;
	if (mag != 1 && mag != 2 && mag != 4 && mag != 8)
		return -1;
	*a = (struct dcc_usdt_arg){ .shift = (uint8_t)(64 - 8 * mag), .sign = size < 0 };
	if (op[0] == '$') { /* a constant */
		a->kind = DCC_USDT_CONST;
		a->val = strtoll(op + 1, &end, 0);
		return *end || end == op + 1 ? -1 : 0;
	}
	if (op[0] == '%') { /* a register */
		int off = reg_off(op, strlen(op));
		a->kind = DCC_USDT_REG;
		a->reg_off = (uint16_t)off;
		return off < 0 ? -1 : 0;
	}
	/* memory: [disp](%reg) or disp(%rip); not base+index*scale */
	char *open = strchr(op, '('), *close = open ? strchr(open, ')') : NULL;
	if (!open || !close || close[1])
		return -1;
	a->kind = DCC_USDT_MEM;
	if (close - open == 5 && !strncmp(open, "(%rip", 5)) {
		a->reg_off = PT_REGS_IP;
		return rip_disp(op, open, loc, &a->val);
	}
	a->val = open == op ? 0 : strtoll(op, &end, 0);
	if (open != op && end != open)
		return -1;
	int off = reg_off(open + 1, (size_t)(close - open - 1));
	a->reg_off = (uint16_t)off;
	return off < 0 ? -1 : 0;
}

int usdt_parse_args(const char *spec, const struct usdt_loc *loc, struct dcc_usdt_spec *out,
		    int *bad)
{
	int n = 0;

	memset(out, 0, sizeof(*out));
	for (const char *p = spec; *p;) {
		size_t len;

		p += strspn(p, " ");
		len = strcspn(p, " ");
		if (!len)
			break;
		if (n == DCC_USDT_ARGS_MAX || parse_one(p, len, loc, &out->arg[n])) {
			*bad = n;
			return -1;
		}
		n++;
		p += len;
	}
	return n;
}
