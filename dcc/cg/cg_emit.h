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

/* What cg_emit_object() makes (struct cg's emit): the ELF object, or the
 * text of the optimized IR or of the BPF assembly (`dcc --emit`). */
enum cg_emit_kind { CG_EMIT_OBJ = 0, CG_EMIT_IR = 1, CG_EMIT_ASM = 2 };

#endif
