/*
 * The skeleton of a compiled object: `bpftool gen skeleton` writes libbpf's
 * part (the object's bytes embedded, its maps and programs as members, the
 * open/load/attach functions), the layout every libbpf user knows; dcc adds
 * a few typed helpers after it that run the object through libdcc-runtime's
 * session API (load, attach dcc's way, BEGIN, the runtime's output).
 * bpftool is $DCC_BPFTOOL, else `bpftool` on PATH, else /usr/sbin/bpftool.
 */
#include "skel.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The skeleton's name: the file's base name up to its first dot, as a C
 * identifier ("syscount.skel.h" -> "syscount"). */
static void skel_name(const char *path, char *name, size_t size)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strcspn(base, ".");
	if (n >= size)
		n = size - 1;
	for (size_t i = 0; i < n; i++)
		name[i] = isalnum((unsigned char)base[i]) ? base[i] : '_';
	name[n] = 0;
	if (!n || isdigit((unsigned char)name[0]))
		snprintf(name, size, "dcc_skel");
}

/* Run bpftool with stdout on fd and stderr on errfd (libbpf's notes about
 * .dcc.meta are noise unless it fails); its exit status, or -1. */
static int run_bpftool(int fd, int errfd, const char *obj_path, const char *name)
{
	const char *tool = getenv("DCC_BPFTOOL");
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(fd, 1);
		if (errfd >= 0)
			dup2(errfd, 2);
		if (tool && *tool) {
			execl(tool, tool, "gen", "skeleton", obj_path, "name", name, (char *)NULL);
		} else {
			execlp("bpftool", "bpftool", "gen", "skeleton", obj_path, "name", name,
			       (char *)NULL);
			execl("/usr/sbin/bpftool", "bpftool", "gen", "skeleton", obj_path, "name",
			      name, (char *)NULL);
		}
		/* stderr is the captured one: shown by the parent */
		fprintf(stderr, "cannot run bpftool to write the skeleton: %s\n",
			strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* dcc's helpers, after bpftool's header (its include guard closed). */
static const char helpers[] =
	"\n/* dcc's helpers: run this object through libdcc-runtime (dcc/session.h). */\n"
	"#ifndef __@N@_DCC_HELPERS__\n"
	"#define __@N@_DCC_HELPERS__\n"
	"#include <dcc/session.h>\n"
	"\n"
	"/* Open a session on the embedded object: its runtime made with opts (NULL:\n"
	" * the defaults, output on stdout), nothing loaded yet. 0 or -errno. */\n"
	"static inline int @N@__dcc_open(const struct dcc_runtime_opts *opts,\n"
	"\t\t\t\t struct dcc_session **s)\n"
	"{\n"
	"\tsize_t sz = 0;\n"
	"\tconst void *elf = @N@__elf_bytes(&sz);\n"
	"\n"
	"\treturn dcc_session__open(elf, sz, opts, s);\n"
	"}\n"
	"\n"
	"/* Open, load, attach every probe and run BEGIN. 0 or -errno (*s NULL). */\n"
	"static inline int @N@__dcc_start(const struct dcc_runtime_opts *opts,\n"
	"\t\t\t\t  struct dcc_session **s)\n"
	"{\n"
	"\tint err = @N@__dcc_open(opts, s);\n"
	"\n"
	"\tif (!err && (err = dcc_session__start(*s)) < 0) {\n"
	"\t\tdcc_session__free(*s);\n"
	"\t\t*s = NULL;\n"
	"\t}\n"
	"\treturn err;\n"
	"}\n"
	"#endif\n";

static int append_helpers(FILE *f, const char *name)
{
	for (const char *p = helpers; *p; p++) {
		if (!strncmp(p, "@N@", 3)) {
			fputs(name, f);
			p += 2;
		} else {
			fputc(*p, f);
		}
	}
	return ferror(f) ? -1 : 0;
}

int skel_write(const char *skel_path, const char *obj_path)
{
	char name[64];
	int fd, rc;
	FILE *f;

	skel_name(skel_path, name, sizeof(name));
	fd = open(skel_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		fprintf(stderr, "dcc: error: cannot write %s: %s\n", skel_path, strerror(errno));
		return 1;
	}
	FILE *errs = tmpfile();

	rc = run_bpftool(fd, errs ? fileno(errs) : -1, obj_path, name);
	if (rc) {
		char line[512];

		close(fd);
		unlink(skel_path);
		fprintf(stderr, "dcc: error: bpftool gen skeleton failed on %s%s\n", obj_path,
			errs ? ":" : "");
		if (errs) {
			rewind(errs);
			while (fgets(line, sizeof(line), errs))
				fprintf(stderr, "  %s", line);
		}
	}
	if (errs)
		fclose(errs);
	if (rc)
		return 1;
	f = fdopen(fd, "a");
	if (!f || append_helpers(f, name) || fclose(f)) {
		fprintf(stderr, "dcc: error: cannot write %s: %s\n", skel_path, strerror(errno));
		return 1;
	}
	return 0;
}
