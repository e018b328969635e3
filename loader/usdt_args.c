/*
 * A USDT note's argument specifications (<sys/sdt.h>'s x86-64 operands:
 * "-4@%edi 8@-16(%rbp) 8@$5") as the BPF program decodes them
 * (abi.h's struct dcc_usdt_spec): each argument a size (negative: signed),
 * then a register, a constant or memory at a register plus a displacement.
 */
#include "internal.h"

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

/* One operand "N@OPERAND" of len bytes into *a; 0 or -1. */
static int parse_one(const char *s, size_t len, struct dcc_usdt_arg *a)
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
	/* memory: [disp](%reg); not %rip-relative, not base+index*scale */
	char *open = strchr(op, '('), *close = open ? strchr(open, ')') : NULL;
	if (!open || !close || close[1])
		return -1;
	a->val = open == op ? 0 : strtoll(op, &end, 0);
	if (open != op && end != open)
		return -1;
	int off = reg_off(open + 1, (size_t)(close - open - 1));
	a->kind = DCC_USDT_MEM;
	a->reg_off = (uint16_t)off;
	return off < 0 ? -1 : 0;
}

int usdt_parse_args(const char *spec, struct dcc_usdt_spec *out, int *bad)
{
	int n = 0;

	memset(out, 0, sizeof(*out));
	for (const char *p = spec; *p;) {
		size_t len;

		p += strspn(p, " ");
		len = strcspn(p, " ");
		if (!len)
			break;
		if (n == DCC_USDT_ARGS_MAX || parse_one(p, len, &out->arg[n])) {
			*bad = n;
			return -1;
		}
		n++;
		p += len;
	}
	return n;
}
