/*
 * dtrace -C: the script through the system's C preprocessor (cpp, else
 * clang-19 -E) with DTrace's predefined macros. The output keeps cpp's line
 * markers, which the lexer follows, so diagnostics keep the script's lines.
 */
#include "cpp.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* What DTrace for Linux defines for cpp, beside the system's own. */
static const char *const predefined[] = {
	"-D__linux", "-D__unix", "-D__SUNW_D=1", "-D__SUNW_D_VERSION=0x02000000",
	"-D_LP64", "-D__LP64__",
#if defined(__x86_64__)
	"-D__x86_64", "-D__amd64",
#elif defined(__aarch64__)
	"-D__aarch64__",
#endif
};

/* "<stdin>" in cpp's line markers becomes the script's name. */
static char *rename_markers(char *out, size_t *len, const char *name)
{
	static const char stdin_name[] = "\"<stdin>\"";
	size_t nlen = strlen(name), cap = *len + 1, n = 0;
	char *res = malloc(cap);

	for (size_t i = 0; i < *len;) {
		const char *hit = NULL;
		/* gcc's "# 0 <built-in>" markers name no line of the script */
		if ((i == 0 || out[i - 1] == '\n') && *len - i > 4 && !memcmp(out + i, "# 0 ", 4)) {
			const char *nl = memchr(out + i, '\n', *len - i);
			i = nl ? (size_t)(nl - out) + 1 : *len;
			continue;
		}
		if (out[i] == '"' && *len - i >= sizeof(stdin_name) - 1 &&
		    !memcmp(out + i, stdin_name, sizeof(stdin_name) - 1))
			hit = out + i;
		size_t add = hit ? nlen + 2 : 1;
		if (n + add + 1 > cap)
			res = realloc(res, cap = (cap + add) * 2);
		if (hit) {
			res[n++] = '"';
			memcpy(res + n, name, nlen);
			n += nlen;
			res[n++] = '"';
			i += sizeof(stdin_name) - 1;
		} else {
			res[n++] = out[i++];
		}
	}
	res[n] = 0;
	free(out);
	*len = n;
	return res;
}

static void exec_cpp(const struct cpp_opts *o, const char *dir)
{
	const char *argv[64 + 2 * sizeof(predefined) / sizeof(predefined[0])];
	int n = 0;
	/* the first found of the system's cpp and clang's */
	argv[n++] = NULL;
	argv[n++] = "-E";
	argv[n++] = "-undef";
	if (o->hdrs)
		argv[n++] = "-H";
	for (size_t i = 0; i < sizeof(predefined) / sizeof(predefined[0]); i++)
		argv[n++] = predefined[i];
	if (dir) {
		argv[n++] = "-iquote";
		argv[n++] = dir;
	}
	for (int i = 0; i < o->nargs && n < 60; i++)
		argv[n++] = o->args[i];
	argv[n++] = "-x";
	argv[n++] = "c";
	argv[n++] = "-";
	argv[n] = NULL;
	const char *cpp = o->path ? o->path : "cpp";
	argv[0] = cpp;
	/* cpp takes -E as a no-op */
	execvp(cpp, (char **)argv);
	if (!o->path) {
		argv[0] = "clang-19";
		execvp("clang-19", (char **)argv);
	}
	fprintf(stderr, "dcc: error: cannot run the C preprocessor (%s): %s\n", cpp,
		strerror(errno));
	_exit(127);
}

char *cpp_run(const struct cpp_opts *o, const char *name, const char *text, size_t len,
	      size_t *outlen)
{
	FILE *in = tmpfile();
	int pfd[2];
	/* A line marker first, so that cpp's own messages name the script; a
	 * "#!" interpreter line becomes an empty one, as dtrace -C slices it
	 * off, keeping the lines after it where they were. */
	size_t skip = 0;
	if (len >= 2 && text[0] == '#' && text[1] == '!') {
		const char *nl = memchr(text, '\n', len);
		skip = nl ? (size_t)(nl - text) : len;
	}
	if (in)
		fprintf(in, "# 1 \"%s\"\n", name ? name : "<description>");
	if (!in || fwrite(text + skip, 1, len - skip, in) != len - skip || fflush(in) ||
	    pipe(pfd)) {
		fprintf(stderr, "dcc: error: cannot run the C preprocessor: %s\n", strerror(errno));
		if (in)
			fclose(in);
		return NULL;
	}
	rewind(in);
	char *dir = NULL;
	const char *slash = name ? strrchr(name, '/') : NULL;
	if (slash)
		dir = strndup(name, (size_t)(slash - name));
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fileno(in), 0);
		dup2(pfd[1], 1);
		close(pfd[0]);
		close(pfd[1]);
		exec_cpp(o, dir);
	}
	close(pfd[1]);
	fclose(in);
	free(dir);
	size_t cap = len + 4096, n = 0;
	char *out = malloc(cap);
	ssize_t k;
	while (pid > 0 && (k = read(pfd[0], out + n, cap - n - 1)) != 0) {
		if (k < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		n += (size_t)k;
		if (cap - n < 2)
			out = realloc(out, cap *= 2);
	}
	close(pfd[0]);
	int st = 0;
	if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		if (pid > 0 && !(WIFEXITED(st) && WEXITSTATUS(st) == 127))
			fprintf(stderr, "dcc: error: the C preprocessor failed on %s\n",
				name ? name : "the script");
		free(out);
		return NULL;
	}
	out[n] = 0;
	*outlen = n;
	return rename_markers(out, outlen, name ? name : "<description>");
}
