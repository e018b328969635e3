/* The C preprocessor before the compiler (dtrace -C, -D, -U, -I, -H, -x cpp...). */
#ifndef DCC_DRIVER_CPP_H
#define DCC_DRIVER_CPP_H

#include <stdbool.h>
#include <stddef.h>

struct cpp_opts {
	bool enabled;      /* -C or -x cpp */
	bool hdrs;         /* -H: cpp lists the files it includes on stderr */
	const char *path;  /* -x cpppath=PATH, else cpp then clang-19 */
	const char **args; /* "-DNAME=V", "-UNAME", "-IDIR" in command-line order */
	int nargs;
};

/* The preprocessed text (malloc'd, NUL-terminated, line markers naming
 * name), or NULL after cpp's own errors and a line saying it failed. */
char *cpp_run(const struct cpp_opts *o, const char *name, const char *text, size_t len,
	      size_t *outlen);

#endif
