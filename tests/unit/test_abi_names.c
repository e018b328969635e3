/*
 * headers/dcc/abi_names.h: every value of the ABI's enums has a name, and
 * values outside them have none (the caller words those).
 */
#include <criterion/criterion.h>
#include <string.h>
#include <dcc/abi.h>
#include <dcc/abi_names.h>

static void all_named(const char *(*name)(uint32_t), uint32_t last, const char *what)
{
	cr_expect_null(name(0), "%s 0", what);
	for (uint32_t v = 1; v <= last; v++) {
		cr_assert_not_null(name(v), "%s %u has no name", what, v);
		cr_expect_gt(strlen(name(v)), 0, "%s %u", what, v);
	}
	cr_expect_null(name(last + 1), "%s %u", what, last + 1);
	cr_expect_null(name(UINT32_MAX), "%s UINT32_MAX", what);
}

Test(abi_names, every_value_has_a_name)
{
	all_named(abi_attach_name, DCC_ATTACH_PID_OFFSET, "attach kind");
	all_named(abi_attach_desc, DCC_ATTACH_PID_OFFSET, "attach kind");
	all_named(abi_action_name, DCC_ACT_PRINT, "action");
	all_named(abi_agg_func_name, DCC_AGG_LLQUANTIZE, "aggregation function");
	all_named(abi_fault_name, DCC_FAULT_LIBRARY, "fault");
}

Test(abi_names, names_the_tools_show)
{
	cr_expect_str_eq(abi_attach_name(DCC_ATTACH_RAW_TP), "raw_tp");
	cr_expect_str_eq(abi_attach_desc(DCC_ATTACH_RAW_TP), "raw tracepoint");
	cr_expect_str_eq(abi_attach_desc(DCC_ATTACH_TP_BTF), "BTF tracepoint");
	cr_expect_str_eq(abi_action_name(DCC_ACT_DEFAULT), "default");
	cr_expect_str_eq(abi_action_name(DCC_ACT_PRINTF), "printf");
	cr_expect_str_eq(abi_agg_func_name(DCC_AGG_STDDEV), "stddev");
	cr_expect_str_eq(abi_fault_name(DCC_FAULT_DIVZERO), "divide-by-zero");
}
