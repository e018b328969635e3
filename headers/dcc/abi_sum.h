/*
 * An object's checksum (struct dcc_meta_header's obj_sum): FNV-1a 32 of
 * the whole ELF file with the field itself read as zero. The compiler
 * writes it last; dtrun skips the trial open in a child (loader/open_probe.c)
 * for an object whose bytes are still exactly what dcc wrote, and opens any
 * other one there first.
 */
#ifndef DCC_ABI_SUM_H
#define DCC_ABI_SUM_H

#include <stddef.h>
#include <stdint.h>

/* Write obj's checksum into its .dcc.meta header: 0, or -1 when obj is not
 * an ELF file with a .dcc.meta section that holds a header. */
int abi_obj_sum_set(void *obj, size_t size);

/* 1 when obj carries a checksum and it matches, 0 otherwise (none, another,
 * or no .dcc.meta header to find). */
int abi_obj_sum_ok(const void *obj, size_t size);

#endif
