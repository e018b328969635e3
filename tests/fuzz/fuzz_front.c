/*
 * libFuzzer harness for the compiler's front end: any bytes as a D script
 * through the lexer, the parser (after the D library) and sema, no codegen
 * (dcc -e). A diagnostic or success, never a crash, a hang, a leak or a
 * sanitizer report. The kernel's BTF and the D library are parsed once for
 * the whole run: each input starts from a copy of the library's tree
 * (compile_dlib_parse), which is what parsing it again would give.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "btf.h"
#include "compile.h"

static FILE *errs;
static struct sema_btf *btf;
static struct arena *btf_arena;
/* DCC_FUZZ_NOLIBS=1: no D library before each input (-x nolibs), about ten
 * times the executions, for runs that aim at the parser and sema's rules */
static bool nolibs;
/* the D library's tree; NULL with DCC_FUZZ_LIBPARSE=1, which parses it
 * before every input as dcc does (ten times slower, to compare) */
static struct dlib *dlib;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	char why[256];
	/* diagnostics are formatted (that code is fuzzed too) but not shown */
	errs = fopen("/dev/null", "w");
	nolibs = getenv("DCC_FUZZ_NOLIBS") != NULL;
	if (!nolibs && !getenv("DCC_FUZZ_LIBPARSE"))
		dlib = compile_dlib_parse();
	btf_arena = arena_create();
	btf = sema_btf_open(btf_arena, getenv("DCC_FUZZ_BTF"), why, sizeof(why));
	if (!btf)
		fprintf(stderr, "fuzz_front: %s: kernel types will be errors\n", why);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* an exact-size copy: a read past the end is the sanitizer's to see */
	char *text = malloc(size ? size : 1);
	memcpy(text, data, size);
	const char *margv[] = { "fuzz.d", "1", "two" };
	struct compile_opts o = {
		.name = "fuzz.d",
		.text = text,
		.len = size,
		.label = "fuzz.d",
		.macro_argv = margv,
		.macro_argc = 3,
		.nolibs = nolibs,
		.check_only = true,
		.errs = errs,
		.btf = btf,
		.dlib = dlib,
	};
	void *obj;
	size_t osize;
	compile_source(&o, &obj, &osize);
	free(obj);
	free(text);
	return 0;
}
