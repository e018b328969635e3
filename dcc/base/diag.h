/*
 * Clang-style diagnostics: "file:line:col: error: message", the source line,
 * and a caret (with ~ under the rest of the range). Sources are registered
 * once; a struct loc names a file by its index.
 */
#ifndef DCC_DIAG_H
#define DCC_DIAG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct loc {
	uint32_t file;   /* index returned by diag_add_source */
	uint32_t off;    /* byte offset in that source */
	uint32_t len;    /* bytes covered (at least 1 when printing the caret) */
	uint32_t line;   /* 1-based */
	uint32_t col;    /* 1-based, in bytes */
};

struct diag;

struct diag *diag_new(FILE *out);
void diag_free(struct diag *dg);
/* The text must outlive the diag; returns the file index for struct loc. */
uint32_t diag_add_source(struct diag *dg, const char *name, const char *text, size_t len);
const char *diag_source_name(struct diag *dg, uint32_t file);
/* Print and count; return -1 so callers can `return diag_error(...)`. */
int diag_error(struct diag *dg, struct loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void diag_warning(struct diag *dg, struct loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void diag_note(struct diag *dg, struct loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* An error with no location: "dcc: error: message". */
int diag_fatal(struct diag *dg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int diag_errors(const struct diag *dg);
/* An impossible state found after sema passed, at loc: "internal error:
 * message" and exit(DIAG_BUG_EXIT), not a user error (those exit 1). */
#define DIAG_BUG_EXIT 70
_Noreturn void diag_bug(struct diag *dg, struct loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same with no location: "dcc: internal error: message". */
_Noreturn void diag_bug_fatal(struct diag *dg, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* While muted, diag_error reports and counts nothing (sema's trial pass). */
void diag_mute(struct diag *dg, bool muted);
bool diag_muted(const struct diag *dg);

#endif
