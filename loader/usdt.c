/*
 * USDT probes at run time: a description "PROV$target:MODULE:FUNC:NAME"
 * (abi.h's DCC_ATTACH_USDT) becomes one uprobe per matching note of the
 * .note.stapsdt sections (<sys/sdt.h>'s format) of the files the process
 * maps. A note holds the probe's address, the .stapsdt.base address it was
 * linked against (prelink may move the file), its semaphore's address (0:
 * none), its provider, its name and its arguments' specifications. MODULE
 * matches the file as the pid provider's OBJECT does (uproc.c), FUNC the
 * function containing the probe, NAME the note's name with "__" as "-"
 * (DTrace's spelling of query__start is query-start).
 *
 * Each note's uprobe has a probe id of its own (as the pid provider's
 * functions) and the index of its argument specification in
 * DCC_MAP_USDTSPECS, both in its cookie; the program decodes arg0..argN
 * from that specification (dcc/cg/cg_usdt.c). The semaphore is the kernel's
 * uprobe reference counter (ref_ctr_offset): it is incremented while a
 * uprobe is attached, in every process mapping the file, so the
 * program's PROBE_ENABLED() tests see it set.
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

#define NT_STAPSDT 3

/* One description, split */
struct usdt_desc {
	char buf[512];
	char *prov; /* glob over the notes' providers ("myprov", "my*") */
	char *mod, *func, *name;
	pid_t pid;
	const char *target, *progname;
	const struct bpf_program *prog;
	FILE *list;    /* dcc -l: print the notes matched instead of attaching */
	uint32_t *next_id; /* listing: the next probe id shown */
};

/* A note of one file, its addresses as file offsets (va: the probe's
 * address in the file, for %rip-relative operands) */
struct note {
	uint64_t pc, sem, va;
	const char *prov, *name, *args;
};

/* "my$target" -> "my", "my1234" -> "my" (a pid in the description),
 * "my*" stays a glob over the providers */
static void split_prov(struct usdt_desc *d, uint64_t param)
{
	char *dollar = strchr(d->prov, '$');
	size_t n = strlen(d->prov);

	if (dollar) {
		*dollar = 0;
	} else if (param) {
		while (n && d->prov[n - 1] >= '0' && d->prov[n - 1] <= '9')
			d->prov[--n] = 0;
	}
}

/* the file offset of virtual address va (PT_LOAD segments), or 0 */
static uint64_t file_off(Elf *e, uint64_t va)
{
	size_t n = 0;
	GElf_Phdr ph;

	elf_getphdrnum(e, &n);
	for (size_t i = 0; i < n; i++)
		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD && va >= ph.p_vaddr &&
		    va < ph.p_vaddr + ph.p_memsz)
			return va - ph.p_vaddr + ph.p_offset;
	return 0;
}

/* the section named `name`, or NULL */
static Elf_Scn *section(Elf *e, const char *name, GElf_Shdr *sh)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(e, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(e, scn))) {
		const char *n = gelf_getshdr(scn, sh) ? elf_strptr(e, shstrndx, sh->sh_name) : NULL;
		if (n && !strcmp(n, name))
			return scn;
	}
	return NULL;
}

/* The notes of the ELF file e (64-bit); their count, *out to free (its
 * strings point into e's data). */
static int read_notes(Elf *e, struct note **out)
{
	GElf_Shdr sh, bsh;
	Elf_Scn *scn = section(e, ".note.stapsdt", &sh);
	uint64_t base_addr = section(e, ".stapsdt.base", &bsh) ? bsh.sh_addr : 0;
	Elf_Data *d = scn && sh.sh_type == SHT_NOTE ? elf_getdata(scn, NULL) : NULL;
	struct note *v = NULL;
	int n = 0, cap = 0;
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;

	*out = NULL;
	while (d && (off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
		const char *desc = (const char *)d->d_buf + desc_off;
		const char *end = desc + nh.n_descsz, *p = desc + 24;
		uint64_t a[3];

		if (nh.n_type != NT_STAPSDT || nh.n_namesz != 8 ||
		    memcmp((const char *)d->d_buf + name_off, "stapsdt", 8) || nh.n_descsz < 27)
			continue;
		memcpy(a, desc, sizeof(a));
		/* prelink moved the file: move the addresses as it moved .stapsdt.base */
		if (base_addr && a[1]) {
			a[0] += base_addr - a[1];
			if (a[2])
				a[2] += base_addr - a[1];
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			struct note *g = realloc(v, sizeof(*v) * (size_t)cap);
			if (!g)
				break;
			v = g;
		}
		v[n].pc = file_off(e, a[0]);
		v[n].va = a[0];
		v[n].sem = a[2] ? file_off(e, a[2]) : 0;
		v[n].prov = p;
		p += strnlen(p, (size_t)(end - p)) + 1;
		v[n].name = p < end ? p : "";
		p += p < end ? strnlen(p, (size_t)(end - p)) + 1 : 0;
		v[n].args = p < end ? p : "";
		if (v[n].pc && end[-1] == 0)
			n++;
	}
	*out = v;
	return n;
}

/* query__start -> query-start */
static void dtrace_name(const char *s, char *out, size_t size)
{
	size_t k = 0;

	for (; *s && k + 1 < size; s++) {
		if (s[0] == '_' && s[1] == '_') {
			out[k++] = '-';
			s++;
		} else {
			out[k++] = *s;
		}
	}
	out[k] = 0;
}

/* the index of spec in DCC_MAP_USDTSPECS, added when new; -errno */
static int spec_index(struct attach_set *as, const struct dcc_usdt_spec *spec)
{
	struct dcc_usdt_spec got;

	for (int i = 0; i < as->nspecs; i++)
		if (!bpf_map_lookup_elem(as->usdtspecs_fd, &(uint32_t){ (uint32_t)i }, &got) &&
		    !memcmp(&got, spec, sizeof(got)))
			return i;
	if (as->nspecs == DCC_USDTSPECS_MAX)
		return -E2BIG;
	if (bpf_map_update_elem(as->usdtspecs_fd, &(uint32_t){ (uint32_t)as->nspecs }, spec,
				BPF_ANY))
		return -errno;
	return as->nspecs++;
}

/* the function containing offset pc, "" if none */
static const char *func_at(const struct func *fn, int n, uint64_t pc)
{
	int lo = 0, hi = n;

	while (lo < hi) { /* the last function starting at or before pc */
		int mid = (lo + hi) / 2;
		if (fn[mid].off <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && pc < fn[lo - 1].off + fn[lo - 1].size ? fn[lo - 1].name : "";
}

/* The address of the symbol `name` of ELF file ctx (.symtab, then
 * .dynsym): an operand's "counter(%rip)". 0, or -1 when it has none. */
static int sym_addr(void *ctx, const char *name, uint64_t *addr)
{
	Elf *e = ctx;

	for (int pass = 0; pass < 2; pass++) {
		Elf_Scn *scn = NULL;
		GElf_Shdr sh;

		while ((scn = elf_nextscn(e, scn))) {
			if (!gelf_getshdr(scn, &sh) || sh.sh_type != (pass ? SHT_DYNSYM : SHT_SYMTAB))
				continue;
			Elf_Data *d = elf_getdata(scn, NULL);
			size_t cnt = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
			for (size_t i = 0; d && i < cnt; i++) {
				GElf_Sym sym;
				const char *s;

				if (!gelf_getsym(d, (int)i, &sym) || sym.st_shndx == SHN_UNDEF)
					continue;
				s = elf_strptr(e, sh.sh_link, sym.st_name);
				if (s && !strcmp(s, name)) {
					*addr = sym.st_value;
					return 0;
				}
			}
		}
	}
	return -1;
}

/* Attach one note of ELF file e; 0 or -errno after a message. */
static int attach_note(struct attach_set *as, const struct usdt_desc *d, const char *path,
		       Elf *e, const struct note *nt, const char *fname, const char *pname)
{
	const struct usdt_loc loc = { nt->va, sym_addr, e };
	const char *base = strrchr(path, '/') + 1;
	struct dcc_usdt_spec spec;
	char prov[64];
	int bad = 0, si;
	uint32_t id;

	snprintf(prov, sizeof(prov), "%s%d", nt->prov, (int)d->pid);
	if (usdt_parse_args(nt->args, &loc, &spec, &bad) < 0) {
		fprintf(stderr, "%s: %s:%s:%s:%s: cannot decode argument %d of \"%s\"\n",
			d->progname, prov, base, fname, pname, bad, nt->args);
		return -EINVAL;
	}
	si = spec_index(as, &spec);
	if (si < 0) {
		fprintf(stderr, "%s: %s:%s:%s:%s: cannot record its arguments: %s\n", d->progname,
			prov, base, fname, pname, strerror(-si));
		return si;
	}
	int err = uproc_add_probe(as, prov, base, fname, pname, &id);
	if (err)
		return err;
	if (as->pidnames_fd >= 0) {
		struct dcc_pidname pn = { 0 };

		snprintf(pn.prov, sizeof(pn.prov), "%.31s", prov);
		snprintf(pn.mod, sizeof(pn.mod), "%.63s", base);
		snprintf(pn.func, sizeof(pn.func), "%.159s", fname);
		snprintf(pn.name, sizeof(pn.name), "%.63s", pname);
		bpf_map_update_elem(as->pidnames_fd, &id, &pn, BPF_ANY);
	}
	LIBBPF_OPTS(bpf_uprobe_opts, uo, .ref_ctr_offset = (size_t)nt->sem,
		    .bpf_cookie = id | (uint64_t)si << 32);
	struct bpf_link *link =
		bpf_program__attach_uprobe_opts(d->prog, d->pid, path, (size_t)nt->pc, &uo);
	if (!link) {
		err = -errno;
		fprintf(stderr, "%s: failed to enable %s:%s:%s:%s: %s\n", d->progname, prov, base,
			fname, pname, strerror(-err));
		return err;
	}
	return attach_add_link(as, link);
}

/* The notes of one file the description matches; the number attached or
 * -errno. */
static int attach_file(struct attach_set *as, const struct usdt_desc *d, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), n, nfn = -1, got = 0, err = 0;
	struct note *nt = NULL;
	struct func *fn = NULL;
	Elf *e;

	if (fd < 0)
		return 0;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	n = e && gelf_getclass(e) == ELFCLASS64 ? read_notes(e, &nt) : 0;
	for (int i = 0; i < n && !err; i++) {
		char pname[64];
		const char *fname;

		dtrace_name(nt[i].name, pname, sizeof(pname));
		if (fnmatch(d->prov, nt[i].prov, 0) || (!uproc_field_match(d->name, pname) &&
							 !uproc_field_match(d->name, nt[i].name)))
			continue;
		if (nfn < 0) /* the functions, once a note is wanted */
			nfn = uproc_elf_funcs(path, "", &fn);
		fname = func_at(fn, nfn, nt[i].pc);
		if (!uproc_field_match(d->func, fname))
			continue;
		if (d->list) {
			char prov[64];

			snprintf(prov, sizeof(prov), "%s%d", nt[i].prov, (int)d->pid);
			fprintf(d->list, "%5u %10s %17s %33s %s\n", (*d->next_id)++, prov,
				strrchr(path, '/') + 1, fname, pname);
		} else {
			err = attach_note(as, d, path, e, &nt[i], fname, pname);
		}
		got += !err;
	}
	for (int i = 0; i < nfn; i++)
		free(fn[i].name);
	free(fn);
	free(nt);
	if (e)
		elf_end(e);
	close(fd);
	return err ? err : got;
}

/* Each note d matches in its process's files; the number, or -errno
 * after a message. */
static int for_each_file(struct attach_set *as, struct usdt_desc *d, uint64_t param,
			 uint32_t flags)
{
	char exe[PATH_MAX], **files = NULL;
	int nfiles, err = 0, n = 0;

	snprintf(d->buf, sizeof(d->buf), "%s", d->target);
	d->prov = d->buf;
	d->mod = strchr(d->prov, ':');
	d->func = d->mod ? strchr(d->mod + 1, ':') : NULL;
	d->name = d->func ? strchr(d->func + 1, ':') : NULL;
	if (!d->name)
		return -EINVAL;
	*d->mod++ = 0;
	*d->func++ = 0;
	*d->name++ = 0;
	split_prov(d, param);
	nfiles = uproc_mapped_files(d->pid, exe, &files);
	if (nfiles < 0) {
		fprintf(stderr, "%s: cannot read the mappings of pid %d: %s\n", d->progname,
			(int)d->pid, strerror(-nfiles));
		return nfiles;
	}
	for (int f = 0; f < nfiles && !err; f++) {
		if (!uproc_object_match(d->mod, files[f], exe))
			continue;
		int got = attach_file(as, d, files[f]);
		if (got < 0)
			err = got;
		else
			n += got;
	}
	for (int f = 0; f < nfiles; f++)
		free(files[f]);
	free(files);
	if (!err && !n && !(flags & DCC_ATTACH_F_OPTIONAL)) {
		fprintf(stderr, "%s: probe description %s does not match any probes in pid %d\n",
			d->progname, d->target, (int)d->pid);
		return -ENOENT;
	}
	return err ? err : n;
}

int usdt_attach(struct attach_set *as, const struct bpf_program *prog,
		const struct dcc_meta_attach *a, const char *target, const char *progname)
{
	struct usdt_desc d = { .pid = a->param ? (pid_t)a->param : as->target, .target = target,
			       .progname = progname, .prog = prog };

	if (!d.pid) {
		fprintf(stderr, "%s: %s: $target needs a process: run with -c or -p\n", progname,
			target);
		return -EINVAL;
	}
	if (as->usdtspecs_fd < 0)
		return -EINVAL;
	int n = for_each_file(as, &d, a->param, a->flags);
	return n < 0 ? n : 0;
}

int usdt_list(const char *desc, pid_t pid, uint32_t param, FILE *out, uint32_t *next_id,
	      const char *progname)
{
	struct usdt_desc d = { .pid = param ? (pid_t)param : pid, .target = desc,
			       .progname = progname, .list = out, .next_id = next_id };

	if (!d.pid) {
		fprintf(stderr, "%s: %s: $target needs a process: list with -c or -p\n", progname,
			desc);
		return -EINVAL;
	}
	int n = for_each_file(NULL, &d, param, 0);
	return n < 0 ? n : 0;
}
