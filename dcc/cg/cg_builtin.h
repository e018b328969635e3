/*
 * What codegen tells about the builtin registry without LLVM: whether every
 * row sema accepts can be compiled (tests/unit/test_builtin.c asks).
 */
#ifndef DCC_CG_BUILTIN_H
#define DCC_CG_BUILTIN_H

#include "builtin.h"

/* The first row sema accepts that codegen cannot compile, or NULL: none. */
const struct builtin *cg_builtin_missing(void);

#endif
