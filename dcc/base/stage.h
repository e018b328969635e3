/*
 * Wall time per compiler stage, for `dcc -v`. The compiler is always in one
 * stage: entering another charges the time since the last switch to the one
 * left. A nested step (BTF loaded while parsing or checking) enters its stage
 * and then returns to the one stage_enter() gave back.
 */
#ifndef DCC_STAGE_H
#define DCC_STAGE_H

#include <stdio.h>

enum stage {
	STAGE_NONE,     /* before the first, after the last */
	STAGE_DLIB,     /* parsing the D library (headers/d) */
	STAGE_PARSE,    /* lexing and parsing the script */
	STAGE_BTF,      /* loading the kernel's BTF and looking types up in it */
	STAGE_SEMA,     /* checking: types, probes, builtins */
	STAGE_TARGET,   /* creating LLVM's BPF target machine */
	STAGE_IR,       /* building the LLVM module */
	STAGE_PASSES,   /* verifying and optimizing it */
	STAGE_EMIT,     /* BPF instruction selection, BTF, the ELF object */
	STAGE_FREE,     /* freeing the module, the tree and BTF */
	STAGE_COUNT
};

/* Switch to stage s; returns the stage left. */
enum stage stage_enter(enum stage s);
/* One line per stage that ran ("dcc: time: sema 0.42 ms"), then the total. */
void stage_report(FILE *f);

#endif
