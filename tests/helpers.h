/* Shared by the test programs: run a command and capture its output. */
#ifndef DCC_TEST_HELPERS_H
#define DCC_TEST_HELPERS_H

#include <stddef.h>

struct run_result {
	int status;   /* exit status, or 128 + signal */
	char *out;    /* stdout, NUL-terminated (malloc'd) */
	size_t out_len;
	char *err;    /* stderr */
	size_t err_len;
};

/* Run argv (argv[0] a path) with optional stdin text; waits up to timeout_s
 * seconds, then SIGKILLs it (status 137). */
int run_cmd(struct run_result *r, char *const argv[], const char *stdin_text, int timeout_s);
/* Like run_cmd through /bin/sh -c. */
int run_sh(struct run_result *r, const char *cmdline, int timeout_s);
void run_result_free(struct run_result *r);

char *read_file(const char *path, size_t *len); /* NULL if missing; malloc'd, NUL-terminated */
int write_file(const char *path, const char *data, size_t len);

/* The update mode of every expected-output file: the text of path, to compare
 * with got (malloc'd, NUL-terminated; NULL if missing). With UPDATE=1 in the
 * environment, got is written to path first, so the comparison passes and the
 * change shows in `git diff`, to be read before it is committed. */
char *golden_expected(const char *path, const char *got, size_t got_len);

/* Number of loaded BPF programs whose name starts with "dcc_" or whose tag
 * matches one of ours; used to check that nothing is left behind. */
int count_dcc_progs(void);

#endif
