/*
 * loader/usdt_args.c: a note's argument specifications as the BPF program
 * decodes them (pt_regs offsets, sizes as shifts, signedness), and the
 * operands it refuses.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "dcc/abi.h"
#include "internal.h"

static void arg_is(const struct dcc_usdt_arg *a, int kind, int shift, int sign, int reg_off,
		   long long val)
{
	cr_expect_eq(a->kind, kind, "kind %d, want %d", a->kind, kind);
	cr_expect_eq(a->shift, shift, "shift %d, want %d", a->shift, shift);
	cr_expect_eq(a->sign, sign, "sign %d, want %d", a->sign, sign);
	cr_expect_eq(a->reg_off, reg_off, "reg_off %d, want %d", a->reg_off, reg_off);
	cr_expect_eq(a->val, val, "val %lld, want %lld", (long long)a->val, val);
}

Test(usdt_args, every_operand_kind)
{
	struct dcc_usdt_spec s;
	int bad = -1;

	cr_assert_eq(usdt_parse_args("-4@%edi 8@-16(%rbp) -8@$-5 2@(%r12) 1@%sil 8@%rax", NULL,
				     &s, &bad), 6);
	arg_is(&s.arg[0], DCC_USDT_REG, 32, 1, 112, 0);
	arg_is(&s.arg[1], DCC_USDT_MEM, 0, 0, 32, -16);
	arg_is(&s.arg[2], DCC_USDT_CONST, 0, 1, 0, -5);
	arg_is(&s.arg[3], DCC_USDT_MEM, 48, 0, 24, 0);
	arg_is(&s.arg[4], DCC_USDT_REG, 56, 0, 104, 0);
	arg_is(&s.arg[5], DCC_USDT_REG, 0, 0, 80, 0);
	/* the rest are the constant 0 */
	arg_is(&s.arg[6], DCC_USDT_CONST, 0, 0, 0, 0);
}

/* a symbol table of two: counter at 0x4010, pair at 0x4020 */
static int sym_addr(void *ctx, const char *name, uint64_t *addr)
{
	(void)ctx;
	if (!strcmp(name, "counter"))
		*addr = 0x4010;
	else if (!strcmp(name, "pair"))
		*addr = 0x4020;
	else
		return -1;
	return 0;
}

/* %rip-relative globals: memory at the saved ip (the probe's address, 0x1000
 * in the file) plus the symbol's distance from it */
Test(usdt_args, rip_relative_globals)
{
	const struct usdt_loc loc = { 0x1000, sym_addr, NULL };
	struct dcc_usdt_spec s;
	int bad = -1;

	cr_assert_eq(usdt_parse_args("-8@counter(%rip) 4@8+pair(%rip) -4@pair+12(%rip) "
				     "8@counter-16(%rip) 8@0x20(%rip) 2@(%rip)", &loc, &s, &bad), 6);
	arg_is(&s.arg[0], DCC_USDT_MEM, 0, 1, 128, 0x3010);
	arg_is(&s.arg[1], DCC_USDT_MEM, 32, 0, 128, 0x3028);
	arg_is(&s.arg[2], DCC_USDT_MEM, 32, 1, 128, 0x302c);
	arg_is(&s.arg[3], DCC_USDT_MEM, 0, 0, 128, 0x3000);
	arg_is(&s.arg[4], DCC_USDT_MEM, 0, 0, 128, 0x20);
	arg_is(&s.arg[5], DCC_USDT_MEM, 48, 0, 128, 0);
	/* without a symbol table, a symbol cannot be resolved */
	cr_assert_eq(usdt_parse_args("8@counter(%rip)", NULL, &s, &bad), -1);
	cr_assert_eq(bad, 0);
}

Test(usdt_args, none_and_spaces)
{
	struct dcc_usdt_spec s;
	int bad = -1;

	cr_assert_eq(usdt_parse_args("", NULL, &s, &bad), 0);
	cr_assert_eq(usdt_parse_args("  8@%r15  -2@0x10(%rsp) ", NULL, &s, &bad), 2);
	arg_is(&s.arg[0], DCC_USDT_REG, 0, 0, 0, 0);
	arg_is(&s.arg[1], DCC_USDT_MEM, 48, 1, 152, 16);
}

Test(usdt_args, refused_operands_name_their_index)
{
	static const struct {
		const char *spec;
		int bad;
	} cases[] = {
		{ "8@%rdi 8@nosuch(%rip)", 1 },	 /* a symbol the file does not have */
		{ "8@counter+pair(%rip)", 0 },	 /* two symbols */
		{ "8@-counter(%rip)", 0 },	 /* a symbol subtracted */
		{ "8@counter*2(%rip)", 0 },
		{ "4@8(%rax,%rbx,4)", 0 },	 /* base + index * scale */
		{ "3@%eax", 0 },		 /* no such size */
		{ "8@%xmm0", 0 },		 /* not an integer register */
		{ "8@$x", 0 },
		{ "1@$1 1@$1 1@$1 1@$1 1@$1 1@$1 1@$1 1@$1 1@$1 1@$1 1@$1 1@$1 1@$1", 12 },
	};
	const struct usdt_loc loc = { 0x1000, sym_addr, NULL };
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct dcc_usdt_spec s;
		int bad = -1;

		cr_expect_eq(usdt_parse_args(cases[i].spec, &loc, &s, &bad), -1, "%s", cases[i].spec);
		cr_expect_eq(bad, cases[i].bad, "%s: bad %d", cases[i].spec, bad);
	}
}
