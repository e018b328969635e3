/*
 * The pid provider at run time: a description "pid$target:OBJECT:FUNC"
 * (abi.h's DCC_ATTACH_PID_*) becomes one uprobe per matching function of
 * the process. OBJECT matches the files the process maps (/proc/PID/maps):
 * "a.out" is its executable, otherwise a glob over each file's name
 * ("libc.so.6"), that name without its ".so..." suffix ("libc") or its path;
 * FUNC is a glob over the functions (symbols of type FUNC with a size) of
 * each file's .symtab and .dynsym. Every function gets a probe id of its own
 * from DCC_PID_ID_BASE, the cookie its program reads, and a probe the
 * runtime prints ("pid123:libc.so.6:getpid:entry").
 */
#include "internal.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dcc/abi.h"
#include "dcc/runtime.h"

struct func {
	uint64_t off; /* in the file */
	char *name;
	int rank; /* among aliases, the lowest names the probe */
};

static bool field_match(const char *pat, const char *s)
{
	return !*pat || fnmatch(pat, s, 0) == 0;
}

/* "libc.so.6" -> "libc" */
static bool stem_match(const char *pat, const char *base)
{
	const char *so = strstr(base, ".so");
	char stem[256];

	if (!so || (size_t)(so - base) >= sizeof(stem))
		return false;
	snprintf(stem, sizeof(stem), "%.*s", (int)(so - base), base);
	return fnmatch(pat, stem, 0) == 0;
}

static bool object_match(const char *pat, const char *path, const char *exe)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

	if (!*pat)
		return true;
	if (!strcmp(pat, "a.out"))
		return !strcmp(path, exe);
	return !fnmatch(pat, base, 0) || !fnmatch(pat, path, 0) || stem_match(pat, base);
}

/* The distinct files mapped executable by pid, the executable first. */
static int mapped_files(pid_t pid, char *exe, char ***out)
{
	char path[64], line[PATH_MAX + 128];
	char **v = NULL;
	int n = 0;
	FILE *f;
	ssize_t len;

	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	len = readlink(path, exe, PATH_MAX - 1);
	exe[len > 0 ? len : 0] = 0;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char perms[8], *file = strchr(line, '/');
		bool seen = false;

		if (!file || sscanf(line, "%*s %7s", perms) != 1 || perms[2] != 'x')
			continue;
		file[strcspn(file, "\n")] = 0;
		for (int i = 0; i < n && !seen; i++)
			seen = !strcmp(v[i], file);
		if (seen)
			continue;
		char **grown = realloc(v, sizeof(*v) * (size_t)(n + 1));
		if (!grown)
			break;
		v = grown;
		v[n++] = strdup(file);
	}
	fclose(f);
	*out = v;
	return n;
}

static int by_off(const void *a, const void *b)
{
	const struct func *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->rank - y->rank;
}

/* The functions of the ELF file `path` whose names match `pat`, by file
 * offset, one name an offset (of aliases, the one with the fewest leading
 * underscores, global before local, .symtab before .dynsym). */
static int elf_funcs(const char *path, const char *pat, struct func **out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), n = 0, cap = 0;
	struct func *v = NULL;
	Elf *e;

	*out = NULL;
	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	for (int pass = 0; e && pass < 2; pass++) {
		Elf_Scn *scn = NULL;
		GElf_Shdr sh;

		while ((scn = elf_nextscn(e, scn))) {
			if (!gelf_getshdr(scn, &sh) ||
			    sh.sh_type != (pass ? SHT_DYNSYM : SHT_SYMTAB))
				continue;
			Elf_Data *d = elf_getdata(scn, NULL);
			size_t cnt = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
			for (size_t i = 0; d && i < cnt; i++) {
				GElf_Sym sym;
				GElf_Shdr ts;
				const char *name;

				if (!gelf_getsym(d, (int)i, &sym) ||
				    GELF_ST_TYPE(sym.st_info) != STT_FUNC || !sym.st_size ||
				    sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE)
					continue;
				name = elf_strptr(e, sh.sh_link, sym.st_name);
				if (!name || !*name || !field_match(pat, name))
					continue;
				if (!gelf_getshdr(elf_getscn(e, sym.st_shndx), &ts) ||
				    sym.st_value < ts.sh_addr)
					continue;
				if (n == cap) {
					cap = cap ? 2 * cap : 64;
					struct func *g = realloc(v, sizeof(*v) * (size_t)cap);
					if (!g)
						break;
					v = g;
				}
				v[n].off = sym.st_value - ts.sh_addr + ts.sh_offset;
				/* getpid before __getpid, a global before a local */
				v[n].rank = 4 * (int)strspn(name, "_") +
					    (GELF_ST_BIND(sym.st_info) == STB_LOCAL) + 2 * pass;
				v[n++].name = strdup(name);
			}
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	/* one probe per address: aliases (memcpy and __memcpy...) keep the first */
	if (n) {
		int k = 0;

		for (int i = 0; i < n; i++)
			v[i].name = v[i].name ? v[i].name : strdup("?");
		qsort(v, (size_t)n, sizeof(*v), by_off);
		for (int i = 0; i < n; i++) {
			if (k && v[k - 1].off == v[i].off) {
				free(v[i].name);
				continue;
			}
			v[k++] = v[i];
		}
		n = k;
	}
	*out = v;
	return n;
}

static int add_probe(struct attach_set *as, const char *prov, const char *mod, const char *func,
		     const char *name, uint32_t *id)
{
	if (as->nprobes == as->probecap) {
		int cap = as->probecap ? 2 * as->probecap : 64;
		struct dcc_probe_desc *g = realloc(as->probes, sizeof(*g) * (size_t)cap);

		if (!g)
			return -ENOMEM;
		as->probes = g;
		as->probecap = cap;
	}
	*id = DCC_PID_ID_BASE + (uint32_t)as->nprobes;
	as->probes[as->nprobes++] = (struct dcc_probe_desc){ *id, strdup(prov), strdup(mod),
							      strdup(func), strdup(name) };
	return 0;
}

/* uprobes refuse some first instructions (ENOTSUPP, 524, from the kernel's
 * instruction decoder) */
static bool unprobeable(int err)
{
	return err == 524 || err == EINVAL || err == EOPNOTSUPP;
}

/* One description's functions in one file. */
struct pid_file {
	const struct bpf_program *prog;
	pid_t pid;
	bool ret, glob;
	const char *prov, *path, *base, *progname;
};

/* Record each function's probe and name it (before it can fire); ids[i]
 * is its probe id and cookie. */
static int name_funcs(struct attach_set *as, const struct pid_file *pf, struct func *fn, int n,
		      uint64_t *ids)
{
	for (int i = 0; i < n; i++) {
		uint32_t id;
		int err = add_probe(as, pf->prov, pf->base, fn[i].name,
				    pf->ret ? "return" : "entry", &id);

		if (err)
			return err;
		ids[i] = id;
		if (as->pidnames_fd >= 0) {
			struct dcc_pidname pn = { 0 };

			snprintf(pn.prov, sizeof(pn.prov), "%.15s", pf->prov);
			snprintf(pn.mod, sizeof(pn.mod), "%.63s", pf->base);
			snprintf(pn.func, sizeof(pn.func), "%.175s", fn[i].name);
			if (bpf_map_update_elem(as->pidnames_fd, &id, &pn, BPF_ANY))
				fprintf(stderr, "%s: cannot name probe %s:%s:%s: %s\n",
					pf->progname, pf->prov, pf->base, fn[i].name,
					strerror(errno));
		}
	}
	return 0;
}

/* Attach fn[0..n): one multi-uprobe link where the kernel has them (a glob
 * that meets a function uprobes refuse falls back to one uprobe a function,
 * skipping it), else one uprobe a function. The number attached, or -errno
 * after a message. */
static int attach_funcs(struct attach_set *as, const struct pid_file *pf, struct func *fn,
			int n)
{
	uint64_t *ids = calloc((size_t)n + 1, sizeof(*ids)), *offs = calloc((size_t)n + 1, 8);
	int err = ids && offs ? name_funcs(as, pf, fn, n, ids) : -ENOMEM, nattached = 0;

	for (int i = 0; !err && i < n; i++)
		offs[i] = fn[i].off;
	if (!err && as->pid_multi) {
		err = pid_multi_attach(as, pf->prog, pf->path, offs, ids, (uint32_t)n, pf->ret,
				       pf->pid);
		if (!err)
			nattached = n;
		else if (pf->glob && unprobeable(-err))
			err = 0;
		else
			fprintf(stderr, "%s: failed to enable %s:%s:%s:%s and %d others: %s\n",
				pf->progname, pf->prov, pf->base, fn[0].name,
				pf->ret ? "return" : "entry", n - 1, strerror(-err));
	}
	for (int i = 0, multi = nattached; !err && !multi && i < n; i++) {
		LIBBPF_OPTS(bpf_uprobe_opts, uo, .retprobe = pf->ret, .bpf_cookie = ids[i]);
		struct bpf_link *link = bpf_program__attach_uprobe_opts(pf->prog, pf->pid, pf->path,
									(size_t)offs[i], &uo);

		if (!link && pf->glob && unprobeable(errno)) {
			/* as DTrace, a glob skips what uprobes cannot instrument */
			as->pid_skipped++;
		} else if (!link) {
			err = -errno;
			fprintf(stderr, "%s: failed to enable %s:%s:%s:%s: %s\n", pf->progname,
				pf->prov, pf->base, fn[i].name, pf->ret ? "return" : "entry",
				strerror(errno));
		} else if (!(err = attach_add_link(as, link))) {
			nattached++;
		}
	}
	free(ids);
	free(offs);
	return err ? err : nattached;
}

int pid_attach(struct attach_set *as, const struct bpf_program *prog,
	       const struct dcc_meta_attach *a, const char *target, const char *progname)
{
	bool ret = a->kind == DCC_ATTACH_PID_RETURN;
	pid_t pid = a->param ? (pid_t)a->param : as->target;
	char desc[512], exe[PATH_MAX], prov[32], **files = NULL;
	char *mod, *func;
	int nfiles, err = 0, nattached = 0;

	if (!pid) {
		fprintf(stderr, "%s: %s:%s: $target needs a process: run with -c or -p\n",
			progname, target, ret ? "return" : "entry");
		return -EINVAL;
	}
	snprintf(desc, sizeof(desc), "%s", target);
	mod = strchr(desc, ':');
	func = mod ? strchr(mod + 1, ':') : NULL;
	if (!func)
		return -EINVAL;
	*mod++ = 0;
	*func++ = 0;
	snprintf(prov, sizeof(prov), "pid%d", (int)pid);
	nfiles = mapped_files(pid, exe, &files);
	if (nfiles < 0) {
		fprintf(stderr, "%s: cannot read the mappings of pid %d: %s\n", progname, (int)pid,
			strerror(-nfiles));
		return nfiles;
	}
	for (int f = 0; f < nfiles && !err; f++) {
		struct pid_file pf = { prog, pid, ret, !*func || strpbrk(func, "*?[") != NULL,
				       prov, files[f], strrchr(files[f], '/') + 1, progname };
		struct func *fn;
		int n;

		if (!object_match(mod, files[f], exe))
			continue;
		n = elf_funcs(files[f], func, &fn);
		if (n > 0) {
			int got = attach_funcs(as, &pf, fn, n);

			if (got < 0)
				err = got;
			else
				nattached += got;
		}
		for (int i = 0; i < n; i++)
			free(fn[i].name);
		free(fn);
	}
	for (int f = 0; f < nfiles; f++)
		free(files[f]);
	free(files);
	if (!err && !nattached && !(a->flags & DCC_ATTACH_F_OPTIONAL)) {
		fprintf(stderr, "%s: probe description %s:%s does not match any probes in pid "
			"%d\n", progname, target, ret ? "return" : "entry", (int)pid);
		return -ENOENT;
	}
	return err;
}
