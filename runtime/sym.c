/*
 * Addresses to names: kernel addresses through /proc/kallsyms, user
 * addresses through the process's /proc/PID/maps and the ELF symbol tables
 * of the mapped objects. Tables are loaded on first use and kept; the texts
 * are DTrace's ("vmlinux`do_sys_openat2+0x1c", "libc.so.6`read",
 * "bash`0x55d0c1a2b3c4", "0xffffffffc0123456").
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rt.h"

struct ksym {
	uint64_t addr;
	uint32_t ord; /* line in kallsyms: the first of equal addresses wins */
	const char *name, *mod;
};

struct usym {
	uint64_t addr, size;
	int rank; /* global 3, weak 2, local 1: the better name of an address */
	char *name;
};

struct uelf {
	char *path;
	struct usym *syms;
	size_t nsyms;
	struct { uint64_t vaddr, off, filesz; } seg[16];
	int nseg;
};

struct umap {
	uint64_t start, end, off;
	char *path;
};

struct uproc {
	int pid;
	struct umap *maps;
	size_t nmaps;
	bool reread; /* maps re-read once after a miss */
};

struct symtab {
	struct uelf *elfs;
	size_t nelfs;
	struct uproc *procs;
	size_t nprocs;
};

static struct symtab *tab(struct dcc_runtime *rt)
{
	if (!rt->syms)
		rt->syms = calloc(1, sizeof(*rt->syms));
	return rt->syms;
}

/* The kernel's text symbols, read from /proc/kallsyms once per process and
 * shared by every runtime in it: the file is ~120,000 lines and takes
 * 60-250 ms to read, which an application with several runtimes (or the
 * fuzzer, with one runtime per input) should pay once. Never freed: it
 * lives as long as the process, reachable from here. */
static struct {
	struct ksym *ks;
	size_t nks;
	char *text; /* the file's bytes; names and modules point into it */
} kernel;
static pthread_once_t kernel_once = PTHREAD_ONCE_INIT;

static int kcmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->ord < y->ord ? -1 : x->ord > y->ord;
}

/* The whole of /proc/kallsyms in one buffer (its size is unknown until
 * read: procfs reports 0). */
static char *kallsyms_text(size_t *len)
{
	size_t cap = 1 << 22, n = 0;
	char *buf = malloc(cap + 1);
	int fd = open("/proc/kallsyms", O_RDONLY | O_CLOEXEC);
	ssize_t r;

	if (!buf || fd < 0) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((r = read(fd, buf + n, cap - n)) > 0 || (r < 0 && errno == EINTR)) {
		if (r < 0)
			continue;
		n += (size_t)r;
		if (n == cap) {
			char *v = realloc(buf, 2 * cap + 1);
			if (!v)
				break;
			buf = v;
			cap *= 2;
		}
	}
	close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* One line, "ADDR TYPE NAME[\t[MODULE]]", cut in place: the name and the
 * module become NUL-terminated strings in the buffer. */
static bool kline(char *line, struct ksym *k)
{
	char *p = line, *name, *mod = NULL;
	uint64_t a = 0;
	int digits = 0;

	for (; *p && *p != ' '; p++, digits++) {
		int v = *p >= '0' && *p <= '9' ? *p - '0'
			: *p >= 'a' && *p <= 'f' ? *p - 'a' + 10 : -1;
		if (v < 0 || digits >= 16)
			return false;
		a = a << 4 | (uint64_t)v;
	}
	/* text symbols only; addresses read as 0 when not root */
	if (*p != ' ' || !a || !p[1] || !strchr("TtWw", p[1]) || p[2] != ' ')
		return false;
	name = p + 3;
	for (p = name; *p && *p != '\t' && *p != ' '; p++)
		;
	if (*p) {
		*p++ = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '[') {
			mod = ++p;
			while (*p && *p != ']')
				p++;
			*p = '\0';
		}
	}
	*k = (struct ksym){ a, 0, name, mod && *mod ? mod : "vmlinux" };
	return *name != '\0';
}

static void kload(void)
{
	size_t len, cap = 0;
	char *text = kallsyms_text(&len), *line, *nl;

	if (!text)
		return;
	kernel.text = text;
	for (line = text; line < text + len; line = nl + 1) {
		struct ksym k;

		if (!(nl = strchr(line, '\n')))
			nl = text + len;
		*nl = '\0';
		if (!kline(line, &k))
			continue;
		if (kernel.nks == cap) {
			struct ksym *v = realloc(kernel.ks, (cap = cap ? 2 * cap : 1 << 17) * sizeof(*v));
			if (!v)
				break;
			kernel.ks = v;
		}
		k.ord = (uint32_t)kernel.nks;
		kernel.ks[kernel.nks++] = k;
	}
	qsort(kernel.ks, kernel.nks, sizeof(*kernel.ks), kcmp);
}

static const struct ksym *kfind(struct dcc_runtime *rt, uint64_t pc)
{
	size_t lo = 0, hi;

	(void)rt;
	pthread_once(&kernel_once, kload);
	hi = kernel.nks;
	if (!hi || pc < kernel.ks[0].addr)
		return NULL;
	/* the last symbol at or below pc; of equal addresses, the first listed */
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (kernel.ks[mid].addr <= pc)
			lo = mid;
		else
			hi = mid;
	}
	while (lo > 0 && kernel.ks[lo - 1].addr == kernel.ks[lo].addr)
		lo--;
	return &kernel.ks[lo];
}

uint64_t rt_ksym_start(struct dcc_runtime *rt, uint64_t pc)
{
	const struct ksym *k = kfind(rt, pc);
	return k ? k->addr : pc;
}

void rt_kaddr(struct dcc_runtime *rt, uint64_t pc, enum rt_addr_form form, char *buf, size_t n)
{
	const struct ksym *k = kfind(rt, pc);

	if (!k)
		snprintf(buf, n, "0x%llx", (unsigned long long)pc);
	else if (form == RT_ADDR_MOD)
		snprintf(buf, n, "%s", k->mod);
	else if (form == RT_ADDR_SYM || pc == k->addr)
		snprintf(buf, n, "%s`%s", k->mod, k->name);
	else
		snprintf(buf, n, "%s`%s+0x%llx", k->mod, k->name,
			 (unsigned long long)(pc - k->addr));
}

/* User side. */

static int ucmp(const void *a, const void *b)
{
	const struct usym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return y->rank - x->rank;
}

/* The symbols of one ELF's .symtab and .dynsym added to u's; its segments
 * too when segs (the mapped file's, not a detached debug file's). */
static void elf_syms(struct uelf *u, Elf *e, bool segs)
{
	Elf_Scn *scn = NULL;
	size_t cap = u->nsyms, phnum;
	GElf_Shdr sh;

	if (segs && !elf_getphdrnum(e, &phnum)) {
		for (size_t i = 0; i < phnum && u->nseg < 16; i++) {
			GElf_Phdr ph;

			if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD) {
				u->seg[u->nseg].vaddr = ph.p_vaddr;
				u->seg[u->nseg].off = ph.p_offset;
				u->seg[u->nseg].filesz = ph.p_filesz;
				u->nseg++;
			}
		}
	}
	while ((scn = elf_nextscn(e, scn))) {
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) ||
		    (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
			continue;
		if (!(d = elf_getdata(scn, NULL)) || !sh.sh_entsize)
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *name;
			int bind;

			if (!gelf_getsym(d, (int)i, &s) || !s.st_value || s.st_shndx == SHN_UNDEF)
				continue;
			if (GELF_ST_TYPE(s.st_info) != STT_FUNC &&
			    GELF_ST_TYPE(s.st_info) != STT_GNU_IFUNC)
				continue;
			name = elf_strptr(e, sh.sh_link, s.st_name);
			if (!name || !*name)
				continue;
			if (u->nsyms == cap) {
				struct usym *v = realloc(u->syms, (cap = cap ? 2 * cap : 256) *
								      sizeof(*v));

				if (!v)
					return;
				u->syms = v;
			}
			bind = GELF_ST_BIND(s.st_info);
			u->syms[u->nsyms] = (struct usym){
				s.st_value, s.st_size,
				bind == STB_GLOBAL ? 3 : bind == STB_WEAK ? 2 : 1, strdup(name),
			};
			if (u->syms[u->nsyms].name)
				u->nsyms++;
		}
	}
}

/* The name .gnu_debuglink gives e's detached debug file, or NULL. */
static const char *debuglink(Elf *e)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t shstrndx;

	if (elf_getshdrstrndx(e, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(e, scn))) {
		const char *name;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(e, shstrndx, sh.sh_name)) ||
		    strcmp(name, ".gnu_debuglink") || !(d = elf_getdata(scn, NULL)) ||
		    !d->d_size || !memchr(d->d_buf, '\0', d->d_size))
			continue;
		return d->d_buf;
	}
	return NULL;
}

/* Whether e has a .symtab (a stripped file has only .dynsym); if not, the
 * path of its detached debug file by the GNU build-id convention,
 * /usr/lib/debug/.build-id/NN/REST.debug, in debug[] ("" when e carries no
 * build-id note). */
static bool has_symtab(Elf *e, char *debug, size_t n)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	*debug = '\0';
	while ((scn = elf_nextscn(e, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			return true;
		if (sh.sh_type != SHT_NOTE)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		GElf_Nhdr nh;
		size_t off = 0, name_off, desc_off;

		while (d && (off = gelf_getnote(d, off, &nh, &name_off, &desc_off))) {
			const unsigned char *id = (const unsigned char *)d->d_buf + desc_off;
			size_t len;

			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 || nh.n_descsz < 2 ||
			    memcmp((const char *)d->d_buf + name_off, "GNU", 4))
				continue;
			len = (size_t)snprintf(debug, n, "/usr/lib/debug/.build-id/%02x/", id[0]);
			for (size_t i = 1; i < nh.n_descsz && len + 3 < n; i++)
				len += (size_t)snprintf(debug + len, n - len, "%02x", id[i]);
			snprintf(debug + len, n - len, ".debug");
		}
	}
	return false;
}

static bool syms_from(struct uelf *u, const char *debug)
{
	int fd = open(debug, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	Elf *de = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (de && elf_kind(de) == ELF_K_ELF)
		elf_syms(u, de, false);
	elf_end(de);
	close(fd);
	return true;
}

/* A stripped file's local functions (libc's __libc_start_call_main) are
 * named only in its detached debug file, when one is installed (Debian's
 * libc6-dbg, a -dbgsym package): read that file's .symtab as well, found
 * where gdb looks: by build-id under /usr/lib/debug/.build-id, then by
 * .gnu_debuglink's name beside the file, in .debug/ beside it, and under
 * /usr/lib/debug. */
static void debug_syms(struct uelf *u, Elf *e, const char *path)
{
	char debug[4200];
	const char *link, *slash = strrchr(path, '/');
	int dir = slash ? (int)(slash - path) : 0;

	if (has_symtab(e, debug, sizeof(debug)))
		return;
	if (*debug && syms_from(u, debug))
		return;
	if (!slash || !(link = debuglink(e)) || strchr(link, '/'))
		return;
	static const char *const where[] = { "%.*s/%s", "%.*s/.debug/%s", "/usr/lib/debug%.*s/%s" };
	for (size_t i = 0; i < sizeof(where) / sizeof(*where); i++) {
		snprintf(debug, sizeof(debug), where[i], dir, path, link);
		if (strcmp(debug, path) && syms_from(u, debug))
			return;
	}
}

static struct uelf *uelf_get(struct symtab *t, const char *path, int pid, const struct umap *m)
{
	struct uelf *u;
	char alt[128];
	Elf *e;
	int fd;

	for (size_t i = 0; i < t->nelfs; i++)
		if (strcmp(t->elfs[i].path, path) == 0)
			return &t->elfs[i];
	u = realloc(t->elfs, (t->nelfs + 1) * sizeof(*u));
	if (!u)
		return NULL;
	t->elfs = u;
	u = &t->elfs[t->nelfs];
	memset(u, 0, sizeof(*u));
	if (!(u->path = strdup(path)))
		return NULL;
	t->nelfs++;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		/* deleted or in another mount namespace: the mapping itself */
		snprintf(alt, sizeof(alt), "/proc/%d/map_files/%llx-%llx", pid,
			 (unsigned long long)m->start, (unsigned long long)m->end);
		fd = open(alt, O_RDONLY | O_CLOEXEC);
	}
	if (fd < 0)
		return u;
	elf_version(EV_CURRENT);
	if ((e = elf_begin(fd, ELF_C_READ_MMAP, NULL))) {
		if (elf_kind(e) == ELF_K_ELF) {
			elf_syms(u, e, true);
			debug_syms(u, e, path);
			qsort(u->syms, u->nsyms, sizeof(*u->syms), ucmp);
		}
		elf_end(e);
	}
	close(fd);
	return u;
}

static void read_maps(struct uproc *p)
{
	char path[64], line[4096];
	size_t cap = 0;
	FILE *f;

	for (size_t i = 0; i < p->nmaps; i++)
		free(p->maps[i].path);
	free(p->maps);
	p->maps = NULL;
	p->nmaps = 0;
	snprintf(path, sizeof(path), "/proc/%d/maps", p->pid);
	if (!(f = fopen(path, "re")))
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off;
		char perms[8];
		int pos = 0;
		char *file, *nl;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &s, &e, perms, &off, &pos) < 4 ||
		    !pos)
			continue;
		file = line + pos;
		if ((nl = strchr(file, '\n')))
			*nl = '\0';
		if (file[0] != '/')
			continue;
		if (p->nmaps == cap) {
			struct umap *v = realloc(p->maps, (cap = cap ? 2 * cap : 32) * sizeof(*v));

			if (!v)
				break;
			p->maps = v;
		}
		p->maps[p->nmaps] = (struct umap){ s, e, off, strdup(file) };
		if (p->maps[p->nmaps].path)
			p->nmaps++;
	}
	fclose(f);
}

static struct uproc *uproc_get(struct symtab *t, int pid)
{
	struct uproc *p;

	for (size_t i = 0; i < t->nprocs; i++)
		if (t->procs[i].pid == pid)
			return &t->procs[i];
	p = realloc(t->procs, (t->nprocs + 1) * sizeof(*p));
	if (!p)
		return NULL;
	t->procs = p;
	p = &t->procs[t->nprocs++];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	read_maps(p);
	return p;
}

static const struct umap *umap_find(struct uproc *p, uint64_t pc)
{
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < p->nmaps; i++)
			if (pc >= p->maps[i].start && pc < p->maps[i].end)
				return &p->maps[i];
		/* a library loaded since: look again, once */
		if (p->reread)
			break;
		p->reread = true;
		read_maps(p);
	}
	return NULL;
}

/* The ELF virtual address of pc, mapped by m from the file of u. */
static bool file_vaddr(const struct uelf *u, const struct umap *m, uint64_t pc, uint64_t *va)
{
	uint64_t foff = pc - m->start + m->off;

	for (int i = 0; i < u->nseg; i++) {
		if (foff >= u->seg[i].off && foff < u->seg[i].off + u->seg[i].filesz) {
			*va = foff - u->seg[i].off + u->seg[i].vaddr;
			return true;
		}
	}
	return false;
}

static const struct usym *usym_find(const struct uelf *u, uint64_t va)
{
	size_t lo = 0, hi = u->nsyms;

	if (!hi || va < u->syms[0].addr)
		return NULL;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (u->syms[mid].addr <= va)
			lo = mid;
		else
			hi = mid;
	}
	while (lo > 0 && u->syms[lo - 1].addr == u->syms[lo].addr)
		lo--;
	/* the best-ranked symbol there that covers va */
	for (size_t i = lo; i < u->nsyms && u->syms[i].addr == u->syms[lo].addr; i++)
		if (va < u->syms[i].addr + u->syms[i].size || va == u->syms[i].addr)
			return &u->syms[i];
	return NULL;
}

void rt_uaddr(struct dcc_runtime *rt, int pid, uint64_t pc, enum rt_addr_form form, char *buf,
	      size_t n)
{
	struct symtab *t = tab(rt);
	struct uproc *p = t && pid > 0 ? uproc_get(t, pid) : NULL;
	const struct umap *m = p ? umap_find(p, pc) : NULL;
	const struct usym *s = NULL;
	const char *obj;
	struct uelf *u;
	uint64_t va;

	if (!m) {
		snprintf(buf, n, "0x%llx", (unsigned long long)pc);
		return;
	}
	obj = strrchr(m->path, '/') ? strrchr(m->path, '/') + 1 : m->path;
	if (form == RT_ADDR_MOD) {
		snprintf(buf, n, "%s", obj);
		return;
	}
	u = uelf_get(t, m->path, pid, m);
	if (u && file_vaddr(u, m, pc, &va) && (s = usym_find(u, va))) {
		if (rt->noresolve) {
			/* noresolve: the object and the offset in its mapping; usym()
			 * names where the symbol starts */
			uint64_t at = form == RT_ADDR_SYM ? pc - (va - s->addr) : pc;

			snprintf(buf, n, "%s:0x%llx", obj, (unsigned long long)(at - m->start));
		} else if (form == RT_ADDR_SYM || va == s->addr)
			snprintf(buf, n, "%s`%s", obj, s->name);
		else
			snprintf(buf, n, "%s`%s+0x%llx", obj, s->name,
				 (unsigned long long)(va - s->addr));
		return;
	}
	if (rt->noresolve)
		snprintf(buf, n, "%s:0x%llx", obj, (unsigned long long)(pc - m->start));
	else
		snprintf(buf, n, "%s`0x%llx", obj, (unsigned long long)pc);
}

void rt_syms_free(struct dcc_runtime *rt)
{
	struct symtab *t = rt->syms;

	if (!t)
		return;
	for (size_t i = 0; i < t->nelfs; i++) {
		for (size_t j = 0; j < t->elfs[i].nsyms; j++)
			free(t->elfs[i].syms[j].name);
		free(t->elfs[i].syms);
		free(t->elfs[i].path);
	}
	free(t->elfs);
	for (size_t i = 0; i < t->nprocs; i++) {
		for (size_t j = 0; j < t->procs[i].nmaps; j++)
			free(t->procs[i].maps[j].path);
		free(t->procs[i].maps);
	}
	free(t->procs);
	free(t);
	rt->syms = NULL;
}
