/*
 * What the pid and USDT providers share at run time: the ELF files a
 * process maps (/proc/PID/maps), the functions of an ELF file's .symtab and
 * .dynsym, matching a description's OBJECT against a file, and the probes
 * the loader makes for what it attaches (a probe id each from
 * DCC_PID_ID_BASE, named in DCC_MAP_PIDNAMES for probeprov/mod/func/name).
 */
#include "internal.h"

#include <bpf/bpf.h>
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

bool uproc_field_match(const char *pat, const char *s)
{
	return !*pat || fnmatch(pat, s, 0) == 0;
}

/* "libc.so.6" named by its stem "libc" or, as DTrace allows, without its
 * version: "libc.so" */
static bool stem_match(const char *pat, const char *base)
{
	const char *so = strstr(base, ".so");
	char stem[256];

	if (!so || (size_t)(so - base) + 3 >= sizeof(stem))
		return false;
	snprintf(stem, sizeof(stem), "%.*s", (int)(so - base), base);
	if (fnmatch(pat, stem, 0) == 0)
		return true;
	snprintf(stem, sizeof(stem), "%.*s", (int)(so - base) + 3, base);
	return fnmatch(pat, stem, 0) == 0;
}

bool uproc_object_match(const char *pat, const char *path, const char *exe)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

	if (!*pat)
		return true;
	if (!strcmp(pat, "a.out"))
		return !strcmp(path, exe);
	return !fnmatch(pat, base, 0) || !fnmatch(pat, path, 0) || stem_match(pat, base);
}

/* The distinct files mapped executable by pid, the executable first. */
int uproc_mapped_files(pid_t pid, char *exe, char ***out)
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

/* The functions of the ELF file `path` one of whose names matches `pat`, by
 * file offset, one name an offset: of the aliases at an offset, whichever
 * name matched, the probe is named as DTrace names it, a global or weak
 * symbol before a local one (a weak _go over a static go), then the fewest
 * leading underscores (go over a weak _go, getpid over __getpid), then
 * global before weak, .symtab before .dynsym. So pid$target::_go:entry of
 * a weak _go aliasing a global go is the probe go. */
int uproc_elf_funcs(const char *path, const char *pat, struct func **out)
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
				if (!name || !*name)
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
				v[n].size = sym.st_size;
				int bind = GELF_ST_BIND(sym.st_info);
				v[n].rank = (bind == STB_LOCAL) * 4096 + 4 * (int)strspn(name, "_") +
					    2 * (bind == STB_WEAK) + pass;
				v[n].matched = uproc_field_match(pat, name);
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
				v[k - 1].matched |= v[i].matched;
				free(v[i].name);
				continue;
			}
			v[k++] = v[i];
		}
		n = 0; /* then the offsets no name of which matched go */
		for (int i = 0; i < k; i++) {
			if (v[i].matched)
				v[n++] = v[i];
			else
				free(v[i].name);
		}
	}
	*out = v;
	return n;
}

/* x86-64's uprobes refuse an instruction with a lock prefix or an ES, CS,
 * SS or DS segment override (their decoder's rule; FS and GS are fine), and
 * int3, int1 and hlt. Only those are screened: whatever else the kernel
 * refuses is found by trying (pid_multi.c). Other architectures: nothing. */
bool uproc_insn_refused(const uint8_t *b, size_t n)
{
#if defined(__x86_64__)
	size_t i = 0;

	for (; i < n; i++) {
		switch (b[i]) {
		case 0xf0: case 0x26: case 0x2e: case 0x36: case 0x3e:
			return true;
		case 0x64: case 0x65: case 0x66: case 0x67: case 0xf2: case 0xf3:
			continue;
		}
		break;
	}
	if (i < n && (b[i] & 0xf0) == 0x40) /* REX */
		i++;
	return i < n && (b[i] == 0xcc || b[i] == 0xf1 || b[i] == 0xf4);
#else
	(void)b;
	(void)n;
	return false;
#endif
}

int uproc_add_probe(struct attach_set *as, const char *prov, const char *mod, const char *func,
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
