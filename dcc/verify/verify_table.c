/*
 * `dcc verify OBJ --btf DIR` (or -f json): the object against many kernels at
 * once, as CI runs it over BTFHub's folders (one BTF file per kernel, in
 * nested folders). For each kernel and each probe (an attachment of the
 * metadata) it says whether the probe resolves there: its target exists in
 * that kernel (the function of fentry/fexit/kprobe, the tracepoint's
 * `btf_trace_*` typedef, the system call of a syscalls tracepoint) and every
 * CO-RE relocation of its program resolves. Printed as a table, one row a
 * probe and one column a kernel, then each failure's reason; or as JSON.
 */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <dcc/abi.h>
#include <dcc/abi_names.h>

#include "verify.h"

struct kernel {
	char *path, *name;
};

static struct kernel *found;
static int nfound;
static size_t root_len; /* of the folder being walked, to name kernels */

static bool has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), k = strlen(suf);
	return n > k && !strcmp(s + n - k, suf);
}

/* A kernel's name: its file's path under the folder, without ".btf". */
static void add_kernel(const char *path, size_t skip)
{
	const char *rel = path + skip;
	while (*rel == '/')
		rel++;
	found = realloc(found, (size_t)(nfound + 1) * sizeof(*found));
	found[nfound].path = strdup(path);
	found[nfound].name = strdup(*rel ? rel : path);
	if (has_suffix(found[nfound].name, ".btf"))
		found[nfound].name[strlen(found[nfound].name) - 4] = 0;
	nfound++;
}

static int walk_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)ftw;
	if (type == FTW_F && has_suffix(path, ".btf"))
		add_kernel(path, root_len);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct kernel *)a)->name, ((const struct kernel *)b)->name);
}

/* Every kernel of paths: files as given, folders' *.btf files sorted by name. */
static int collect(const char *const *paths, int npaths)
{
	for (int i = 0; i < npaths; i++) {
		struct stat st;
		if (stat(paths[i], &st)) {
			fprintf(stderr, "dcc: error: cannot read BTF from %s: %s\n", paths[i],
				strerror(errno));
			return -1;
		}
		if (!S_ISDIR(st.st_mode)) {
			const char *slash = strrchr(paths[i], '/');
			add_kernel(paths[i], slash ? (size_t)(slash - paths[i] + 1) : 0);
			continue;
		}
		int first = nfound;
		root_len = strlen(paths[i]);
		if (nftw(paths[i], walk_one, 16, FTW_PHYS)) {
			fprintf(stderr, "dcc: error: cannot read the folder %s: %s\n", paths[i],
				strerror(errno));
			return -1;
		}
		if (nfound == first) {
			fprintf(stderr, "dcc: error: no .btf file in the folder %s\n", paths[i]);
			return -1;
		}
		qsort(found + first, (size_t)(nfound - first), sizeof(*found), by_name);
	}
	return 0;
}

static bool has_named(const struct btf *b, const char *name, int kind)
{
	return btf__find_by_name_kind(b, name, kind) > 0;
}

/* Whether the attachment's target exists in b: 0, or 1 with why. */
static int target_check(const struct btf *b, const struct vattach *a, char *why, size_t whylen)
{
	char name[256];
	const char *t = a->target, *slash;

	switch (a->kind) {
	case DCC_ATTACH_FENTRY:
	case DCC_ATTACH_FEXIT:
	case DCC_ATTACH_KPROBE:
	case DCC_ATTACH_KRETPROBE:
		if (has_named(b, t, BTF_KIND_FUNC))
			return 0;
		snprintf(why, whylen, "no function %s", t);
		return 1;
	case DCC_ATTACH_TRACEPOINT:
		slash = strchr(t, '/');
		if (slash && !strncmp(t, "syscalls/", 9) &&
		    (!strncmp(slash + 1, "sys_enter_", 10) || !strncmp(slash + 1, "sys_exit_", 9))) {
			/* a system call's tracepoints exist with its function */
			const char *sc = strchr(slash + 1 + 4, '_') + 1;
			static const char *const pre[] = { "__x64_sys_", "__arm64_sys_",
							   "__se_sys_", "__do_sys_", "sys_" };
			for (size_t i = 0; i < sizeof(pre) / sizeof(pre[0]); i++) {
				snprintf(name, sizeof(name), "%s%s", pre[i], sc);
				if (has_named(b, name, BTF_KIND_FUNC))
					return 0;
			}
			snprintf(why, whylen, "no system call %s", sc);
			return 1;
		}
		t = slash ? slash + 1 : t;
		/* a tracepoint event has a btf_trace_ typedef, as a raw one */
		__attribute__((fallthrough));
	case DCC_ATTACH_RAW_TP:
	case DCC_ATTACH_TP_BTF:
		snprintf(name, sizeof(name), "btf_trace_%s", t);
		if (has_named(b, name, BTF_KIND_TYPEDEF))
			return 0;
		snprintf(why, whylen, "no tracepoint %s", a->target);
		return 1;
	default: /* BEGIN, END, timers, user space: nothing of the kernel's */
		return 0;
	}
}

static char *row_label(const struct vattach *a)
{
	const char *k = abi_attach_name(a->kind);
	char *s = malloc(strlen(a->target) + 32);
	if (!*a->target)
		sprintf(s, "%s", k ? k : a->prog);
	else
		sprintf(s, "%s %s", k ? k : "?", a->target);
	return s;
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", (unsigned char)*s);
		else
			putchar(*s);
	}
	putchar('"');
}

/* why[k * nrows + r]: NULL when row r resolves on kernel k. */
static void print_text(const struct vobj *o, char **rows, int nrows, char **why, bool *unread)
{
	int w = 5, bad = 0;
	for (int r = 0; r < nrows; r++)
		if ((int)strlen(rows[r]) > w)
			w = (int)strlen(rows[r]);
	printf("%-*s", w, "probe");
	for (int k = 0; k < nfound; k++)
		printf("  %s", found[k].name);
	putchar('\n');
	for (int r = 0; r < nrows; r++) {
		printf("%-*s", w, rows[r]);
		for (int k = 0; k < nfound; k++) {
			const char *v = unread[k] ? "?" : why[k * nrows + r] ? "FAIL" : "ok";
			int cw = k + 1 < nfound ? (int)strlen(found[k].name) : 0;
			printf("  %-*s", cw, v);
		}
		putchar('\n');
	}
	for (int k = 0; k < nfound; k++)
		for (int r = 0; r < nrows && !unread[k]; r++)
			if (why[k * nrows + r]) {
				if (!bad++)
					putchar('\n');
				printf("%s: %s on %s: %s\n", o->path, rows[r], found[k].name,
				       why[k * nrows + r]);
			}
}

static void print_json(const struct vobj *o, char **rows, int nrows, char **why, bool *unread,
		       bool ok)
{
	printf("{\"object\":");
	json_str(o->path);
	printf(",\"ok\":%s,\"kernels\":[", ok ? "true" : "false");
	for (int k = 0; k < nfound; k++) {
		printf("%s{\"name\":", k ? "," : "");
		json_str(found[k].name);
		printf(",\"file\":");
		json_str(found[k].path);
		printf(",\"readable\":%s}", unread[k] ? "false" : "true");
	}
	printf("],\"probes\":[");
	for (int r = 0; r < nrows; r++) {
		printf("%s{\"probe\":", r ? "," : "");
		json_str(rows[r]);
		printf(",\"results\":[");
		for (int k = 0; k < nfound; k++) {
			const char *w = why[k * nrows + r];
			printf("%s{\"kernel\":", k ? "," : "");
			json_str(found[k].name);
			printf(",\"resolves\":%s", unread[k] || w ? "false" : "true");
			if (w || unread[k]) {
				printf(",\"why\":");
				json_str(unread[k] ? "the BTF file cannot be read" : w);
			}
			putchar('}');
		}
		printf("]}");
	}
	printf("]}\n");
}

int verify_table(const struct vobj *o, const char *const *paths, int npaths, bool json)
{
	int nrows = o->nattach, ret = 0;
	char **rows = calloc((size_t)nrows + 1, sizeof(*rows)), **why;
	bool *unread;

	if (collect(paths, npaths)) {
		ret = 1;
		goto out;
	}
	why = calloc((size_t)(nfound * nrows) + 1, sizeof(*why));
	unread = calloc((size_t)nfound + 1, sizeof(*unread));
	for (int r = 0; r < nrows; r++)
		rows[r] = row_label(&o->attach[r]);
	for (int k = 0; k < nfound; k++) {
		libbpf_print_fn_t old = libbpf_set_print(NULL);
		struct btf *b = btf__parse(found[k].path, NULL);
		char one[1024];

		libbpf_set_print(old);
		if (!b || verify_btf_check(b, one, sizeof(one))) {
			fprintf(stderr, "dcc: error: cannot read BTF from %s\n", found[k].path);
			unread[k] = true;
			ret = 1;
			btf__free(b);
			continue;
		}
		for (int r = 0; r < nrows; r++) {
			const struct vattach *a = &o->attach[r];
			int bad = target_check(b, a, one, sizeof(one));
			if (bad && (a->flags & DCC_ATTACH_F_OPTIONAL))
				bad = 0; /* the loader skips it where it is missing */
			if (!bad)
				bad = verify_core_prog(o, b, found[k].name, a->prog, one, sizeof(one));
			if (bad) {
				why[k * nrows + r] = strdup(one);
				ret = 1;
			}
		}
		btf__free(b);
	}
	if (json)
		print_json(o, rows, nrows, why, unread, !ret);
	else
		print_text(o, rows, nrows, why, unread);
	for (int i = 0; i < nfound * nrows; i++)
		free(why[i]);
	free(why);
	free(unread);
out:
	for (int r = 0; r < nrows; r++)
		free(rows[r]);
	free(rows);
	for (int k = 0; k < nfound; k++) {
		free(found[k].path);
		free(found[k].name);
	}
	free(found);
	found = NULL;
	nfound = 0;
	return ret;
}
