/* dcc -h: a C header of USDT probe macros from D provider definitions. */
#ifndef DCC_HEADER_H
#define DCC_HEADER_H

#include <stddef.h>

/* Parse text (file name for diagnostics) and write the header to out ("-": stdout).
 * 0, or 1 after printing the errors. */
int header_write(const char *name, const char *text, size_t len, const char *out);

#endif
