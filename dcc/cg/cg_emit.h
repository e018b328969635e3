/*
 * The LLVM module codegen built -> a BPF ELF object in memory (cg_emit.c).
 */
#ifndef DCC_CG_EMIT_H
#define DCC_CG_EMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <llvm-c/TargetMachine.h>

struct cg;

/* The BPF target machine cg_program() lays the module out for, or NULL
 * (reported) when LLVM was built without the BPF target. */
LLVMTargetMachineRef cg_emit_target_machine(void);
/* Verify, optimize and emit the module into *obj (malloc'd, *size bytes);
 * with dump_ir, print the optimized IR to stdout first. 0, or -1 after
 * reporting a clause the backend refuses (one past BPF's 512 bytes of
 * stack); any other failure is an internal error (diag_bug_fatal). */
int cg_emit_object(struct cg *cg, bool dump_ir, void **obj, size_t *size);

#endif
