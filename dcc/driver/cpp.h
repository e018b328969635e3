/* The C preprocessor before the compiler (dtrace -C, -D, -U, -I, -H, -x cpp...). */
#ifndef DCC_DRIVER_CPP_H
#define DCC_DRIVER_CPP_H

#include <stdbool.h>
#include <stddef.h>

struct cpp_opts {
	bool enabled;      /* -C, -x cpp, or a directive in the script */
	bool hdrs;         /* -H: cpp lists the files it includes on stderr */
	const char *path;  /* -x cpppath=PATH, else cpp then clang-19 */
	const char **args; /* "-DNAME=V", "-UNAME", "-IDIR" in command-line order */
	int nargs;
};

/* True when a line of text is a cpp directive (#if, #define, #include...). */
bool cpp_wanted(const char *text, size_t len);

/* The preprocessed text (malloc'd, NUL-terminated, line markers naming
 * name), or NULL after cpp's own errors and a line saying it failed. */
char *cpp_run(const struct cpp_opts *o, const char *name, const char *text, size_t len,
	      size_t *outlen);

#endif
