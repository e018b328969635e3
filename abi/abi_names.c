/*
 * Enum values of the ABI (abi.h) to their names (abi_names.h): one table
 * each, indexed by the value, so a value added to abi.h without a name here
 * is caught by tests/unit/test_abi_names.c.
 */
#include <stddef.h>

#include <dcc/abi.h>
#include <dcc/abi_names.h>

#define LOOKUP(table, v) ((v) < sizeof(table) / sizeof((table)[0]) ? (table)[v] : NULL)

static const struct {
	const char *name, *desc;
} attach[] = {
	[DCC_ATTACH_BEGIN] = { "BEGIN", "BEGIN" },
	[DCC_ATTACH_END] = { "END", "END" },
	[DCC_ATTACH_TRACEPOINT] = { "tracepoint", "tracepoint" },
	[DCC_ATTACH_RAW_TP] = { "raw_tp", "raw tracepoint" },
	[DCC_ATTACH_TICK] = { "tick", "tick" },
	[DCC_ATTACH_PROFILE] = { "profile", "profile" },
	[DCC_ATTACH_TP_BTF] = { "tp_btf", "BTF tracepoint" },
	[DCC_ATTACH_FENTRY] = { "fentry", "fentry" },
	[DCC_ATTACH_FEXIT] = { "fexit", "fexit" },
	[DCC_ATTACH_KPROBE] = { "kprobe", "kprobe" },
	[DCC_ATTACH_KRETPROBE] = { "kretprobe", "kretprobe" },
	[DCC_ATTACH_UPROBE] = { "uprobe", "uprobe" },
	[DCC_ATTACH_URETPROBE] = { "uretprobe", "uretprobe" },
	[DCC_ATTACH_PID_ENTRY] = { "pid_entry", "pid entry probe" },
	[DCC_ATTACH_PID_RETURN] = { "pid_return", "pid return probe" },
	[DCC_ATTACH_USDT] = { "usdt", "USDT probe" },
	[DCC_ATTACH_CPC] = { "cpc", "cpc event" },
	[DCC_ATTACH_PID_OFFSET] = { "pid_offset", "pid offset probe" },
};

static const char *const actions[] = {
	[DCC_ACT_PRINTF] = "printf", [DCC_ACT_TRACE] = "trace", [DCC_ACT_EXIT] = "exit",
	[DCC_ACT_PRINTA] = "printa", [DCC_ACT_DEFAULT] = "default", [DCC_ACT_CLEAR] = "clear",
	[DCC_ACT_TRUNC] = "trunc", [DCC_ACT_NORMALIZE] = "normalize",
	[DCC_ACT_DENORMALIZE] = "denormalize", [DCC_ACT_SETOPT] = "setopt",
	[DCC_ACT_COMMIT] = "commit", [DCC_ACT_DISCARD] = "discard", [DCC_ACT_TRACEMEM] = "tracemem",
	[DCC_ACT_SYSTEM] = "system", [DCC_ACT_FREOPEN] = "freopen",
	[DCC_ACT_FTRUNCATE] = "ftruncate", [DCC_ACT_PRINT] = "print",
};

static const char *const agg_funcs[] = {
	[DCC_AGG_COUNT] = "count", [DCC_AGG_SUM] = "sum", [DCC_AGG_AVG] = "avg",
	[DCC_AGG_MIN] = "min", [DCC_AGG_MAX] = "max", [DCC_AGG_STDDEV] = "stddev",
	[DCC_AGG_QUANTIZE] = "quantize", [DCC_AGG_LQUANTIZE] = "lquantize",
	[DCC_AGG_LLQUANTIZE] = "llquantize",
};

static const char *const faults[] = {
	[DCC_FAULT_BADADDR] = "invalid address", [DCC_FAULT_BADALIGN] = "invalid alignment",
	[DCC_FAULT_ILLOP] = "illegal operation", [DCC_FAULT_DIVZERO] = "divide-by-zero",
	[DCC_FAULT_NOSCRATCH] = "out of scratch space",
	[DCC_FAULT_KPRIV] = "invalid kernel access", [DCC_FAULT_UPRIV] = "invalid user access",
	[DCC_FAULT_TUPOFLOW] = "tuple stack overflow", [DCC_FAULT_BADSTACK] = "bad stack",
	[DCC_FAULT_BADSIZE] = "invalid size", [DCC_FAULT_BADINDEX] = "index out of bounds",
	[DCC_FAULT_LIBRARY] = "library-level fault",
};

const char *abi_attach_name(uint32_t kind)
{
	return kind < sizeof(attach) / sizeof(attach[0]) ? attach[kind].name : NULL;
}

const char *abi_attach_desc(uint32_t kind)
{
	return kind < sizeof(attach) / sizeof(attach[0]) ? attach[kind].desc : NULL;
}

const char *abi_action_name(uint32_t kind)
{
	return LOOKUP(actions, kind);
}

const char *abi_agg_func_name(uint32_t func)
{
	return LOOKUP(agg_funcs, func);
}

const char *abi_fault_name(uint32_t fault)
{
	return LOOKUP(faults, fault);
}
