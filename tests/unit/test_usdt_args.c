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

	cr_assert_eq(usdt_parse_args("-4@%edi 8@-16(%rbp) -8@$-5 2@(%r12) 1@%sil 8@%rax", &s,
				     &bad), 6);
	arg_is(&s.arg[0], DCC_USDT_REG, 32, 1, 112, 0);
	arg_is(&s.arg[1], DCC_USDT_MEM, 0, 0, 32, -16);
	arg_is(&s.arg[2], DCC_USDT_CONST, 0, 1, 0, -5);
	arg_is(&s.arg[3], DCC_USDT_MEM, 48, 0, 24, 0);
	arg_is(&s.arg[4], DCC_USDT_REG, 56, 0, 104, 0);
	arg_is(&s.arg[5], DCC_USDT_REG, 0, 0, 80, 0);
	/* the rest are the constant 0 */
	arg_is(&s.arg[6], DCC_USDT_CONST, 0, 0, 0, 0);
}

Test(usdt_args, none_and_spaces)
{
	struct dcc_usdt_spec s;
	int bad = -1;

	cr_assert_eq(usdt_parse_args("", &s, &bad), 0);
	cr_assert_eq(usdt_parse_args("  8@%r15  -2@0x10(%rsp) ", &s, &bad), 2);
	arg_is(&s.arg[0], DCC_USDT_REG, 0, 0, 0, 0);
	arg_is(&s.arg[1], DCC_USDT_MEM, 48, 1, 152, 16);
}

Test(usdt_args, refused_operands_name_their_index)
{
	static const struct {
		const char *spec;
		int bad;
	} cases[] = {
		{ "8@%rdi 8@counter(%rip)", 1 }, /* %rip-relative: an address to resolve */
		{ "4@8(%rax,%rbx,4)", 0 },	 /* base + index * scale */
		{ "3@%eax", 0 },		 /* no such size */
		{ "8@%xmm0", 0 },		 /* not an integer register */
		{ "8@$x", 0 },
		{ "1@$1 1@$1 1@$1 1@$1 1@$1 1@$1 1@$1 1@$1 1@$1 1@$1 1@$1 1@$1 1@$1", 12 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct dcc_usdt_spec s;
		int bad = -1;

		cr_expect_eq(usdt_parse_args(cases[i].spec, &s, &bad), -1, "%s", cases[i].spec);
		cr_expect_eq(bad, cases[i].bad, "%s: bad %d", cases[i].spec, bad);
	}
}
