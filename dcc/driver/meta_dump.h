/*
 * --dump-meta: an object's metadata section (headers/dcc/abi.h) as text,
 * for people and for the compile tests' goldens.
 */
#ifndef DCC_META_DUMP_H
#define DCC_META_DUMP_H

#include <stddef.h>
#include <stdio.h>

/* Print the metadata tables of the object in obj; 0, or 1 if it has none
 * or they are malformed. */
int meta_dump(FILE *out, const void *obj, size_t size);

#endif
