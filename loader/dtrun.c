/*
 * dtrun: run a dcc object (OBJ.bpf.o) on this kernel with dtrace's options.
 * Everything but reading the file is loader_run's.
 */
#include "info.h"
#include "loader.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * An object is a program that runs in the kernel with dtrun's privileges:
 * refuse one that someone else could have changed, as sudo and cron refuse
 * such files. Writable by others, by a group other than root's, or owned
 * by a user other than root and the one running dtrun: errno EPERM and why.
 */
static int check_writers(int fd, char *why, size_t len)
{
	struct stat st;

	if (fstat(fd, &st))
		return -1;
	if (!S_ISREG(st.st_mode))
		return 0; /* a pipe or a device: its writer is whoever feeds it */
	if (st.st_uid != 0 && st.st_uid != geteuid())
		snprintf(why, len, "it is owned by user %u, not by root or you",
			 (unsigned)st.st_uid);
	else if (st.st_mode & S_IWOTH)
		snprintf(why, len, "it is writable by every user");
	else if ((st.st_mode & S_IWGRP) && st.st_gid != 0)
		snprintf(why, len, "it is writable by group %u", (unsigned)st.st_gid);
	else
		return 0;
	return 1;
}

static void *read_object(const char *path, size_t *size, bool allow_writable)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL, *grown, why[128];
	size_t len = 0, cap = 0, n;

	if (!f)
		return NULL;
	if (!allow_writable && check_writers(fileno(f), why, sizeof(why)) == 1) {
		fprintf(stderr, "dtrun: refusing to run %s: %s; anyone who can change it "
			"chooses what runs in the kernel (--allow-writable runs it anyway)\n",
			path, why);
		fclose(f);
		errno = 0;
		return NULL;
	}
	for (;;) {
		if (len == cap) {
			cap = cap ? cap * 2 : 1 << 16;
			grown = realloc(buf, cap);
			if (!grown) {
				free(buf);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = grown;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		int err = errno ? errno : EIO;

		free(buf);
		fclose(f);
		errno = err;
		return NULL;
	}
	fclose(f);
	*size = len;
	return buf;
}

int main(int argc, char **argv)
{
	struct loader_opts opts = { .progname = "dtrun" };
	size_t size = 0;
	void *obj;
	int first, status;

	hugeheap_reserve((size_t)24 << 20);
	status = info_long_options(argc, argv);
	if (status >= 0)
		return status;
	first = loader_parse_opts(argc, argv, &opts, NULL, NULL, NULL);
	if (first == -2)
		return 0;
	if (first == -3)
		return 1;
	if (first < 0)
		return 2;
	if (first != argc - 1) {
		fprintf(stderr, first == argc ? "dtrun: no object file given\n"
					      : "dtrun: only one object file may be given\n");
		loader_usage(stderr, &opts);
		return 2;
	}
	opts.obj_name = argv[first];
	obj = read_object(argv[first], &size, opts.allow_writable);
	if (!obj) {
		if (errno) /* 0: refused, and said why */
			fprintf(stderr, "dtrun: failed to read %s: %s\n", argv[first],
				strerror(errno));
		return 1;
	}
	if (!size) {
		fprintf(stderr, "dtrun: %s: empty file\n", argv[first]);
		free(obj);
		return 1;
	}
	/* what the kernel lacks, before anything is loaded */
	if (loader_check_kernel(obj, size, &opts)) {
		free((void *)opts.xopts);
		free(obj);
		return 1;
	}
	status = loader_run(obj, size, &opts);
	free((void *)opts.xopts);
	free(obj);
	return status;
}
