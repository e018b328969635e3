/*
 * The names of the ABI's enums (abi.h), one table each, for every side
 * that prints them: --dump-meta, the loader's messages, the runtime's
 * metadata checks and fault messages, codegen's record actions. Each
 * function returns NULL for a value the ABI does not define; the caller
 * words the unknown case.
 */
#ifndef DCC_ABI_NAMES_H
#define DCC_ABI_NAMES_H

#include <stdint.h>

/* enum dcc_attach_kind, short ("raw_tp") as --dump-meta lists it */
const char *abi_attach_name(uint32_t kind);
/* enum dcc_attach_kind in words ("raw tracepoint") for messages */
const char *abi_attach_desc(uint32_t kind);
/* enum dcc_action_kind: the D action that records it ("printf", "default"
 * for the empty clause's) */
const char *abi_action_name(uint32_t kind);
/* enum dcc_agg_func: the D function ("llquantize") */
const char *abi_agg_func_name(uint32_t func);
/* enum dcc_fault: DTrace's words for it ("divide-by-zero") */
const char *abi_fault_name(uint32_t fault);

#endif
