/*
 * `dcc verify OBJ [--btf FILE ...]`: read a BPF object's ELF sections (.BTF,
 * .BTF.ext, the symbol table, .dcc.meta) into a struct vobj, then say for each
 * target BTF whether every CO-RE relocation resolves, and with no --btf also
 * whether every program passes the running kernel's verifier.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <dcc/abi.h>

#include "verify.h"

#ifndef EM_BPF
#define EM_BPF 247
#endif

#define VMLINUX_BTF "/sys/kernel/btf/vmlinux"

static const char verify_usage[] =
	"usage: dcc verify [-v] [-f text|json] object.bpf.o [--btf FILE|DIR ...]\n"
	"  --btf FILE   check the CO-RE relocations against FILE's BTF (default: this\n"
	"               kernel's, and then its verifier loads every program)\n"
	"  --btf DIR    every *.btf file under DIR (BTFHub's layout), as a table of\n"
	"               which probe resolves on which kernel\n"
	"  -f json      that table as JSON (also with --btf FILE)\n"
	"  -v           each relocation that resolves, with its values\n"
	"exit status: 0 when everything resolves, 1 when something does not\n";

static char *slurp(const char *path, size_t *size)
{
	struct stat st;
	char *buf;
	size_t n = 0;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		if (!errno || S_ISDIR(st.st_mode))
			errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		close(fd);
		return NULL;
	}
	buf = malloc((size_t)st.st_size + 1);
	while (buf && n < (size_t)st.st_size) {
		ssize_t k = read(fd, buf + n, (size_t)st.st_size - n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		n += (size_t)k;
	}
	close(fd);
	if (!buf)
		return NULL;
	*size = n;
	return buf;
}

/* Names outlive the Elf handle: keep copies in one growing buffer of
 * NUL-separated strings, referenced by offset until the end of parsing. */
struct strpool {
	char *buf;
	size_t len, cap;
};

static size_t pool_add(struct strpool *p, const char *s)
{
	size_t n = strlen(s) + 1, at = p->len;

	if (p->len + n > p->cap) {
		p->cap = (p->len + n) * 2 + 256;
		p->buf = realloc(p->buf, p->cap);
	}
	memcpy(p->buf + at, s, n);
	p->len += n;
	return at;
}

static Elf_Data *section_data(Elf_Scn *scn, const GElf_Shdr *sh, size_t file_size)
{
	if (sh->sh_type != SHT_NOBITS &&
	    (sh->sh_offset > file_size || sh->sh_size > file_size - sh->sh_offset))
		return NULL;
	return elf_getdata(scn, NULL);
}

/* The attach table of .dcc.meta; a missing or unreadable table only means
 * BTF-typed programs get no attach target from it. */
static void read_meta(struct vobj *o, const char *data, size_t size, struct strpool *pool,
		      size_t **offs)
{
	const struct dcc_meta_header *h = (const void *)data;
	const struct dcc_meta_attach *a;

	if (size < sizeof(*h) || memcmp(h->magic, DCC_META_MAGIC, sizeof(h->magic)) ||
	    h->size > size || h->str_off > size || h->str_size > size - h->str_off ||
	    h->attach_off > size || h->nattach > (size - h->attach_off) / sizeof(*a) ||
	    (h->attach_off % sizeof(uint32_t)))
		return;
	a = (const void *)(data + h->attach_off);
	o->attach = calloc(h->nattach ? h->nattach : 1, sizeof(*o->attach));
	*offs = calloc(2 * (size_t)h->nattach + 1, sizeof(**offs));
	for (uint32_t i = 0; i < h->nattach; i++) {
		const char *strs = data + h->str_off;

		if (a[i].prog >= h->str_size || a[i].target >= h->str_size ||
		    !memchr(strs + a[i].prog, 0, h->str_size - a[i].prog) ||
		    !memchr(strs + a[i].target, 0, h->str_size - a[i].target))
			continue;
		(*offs)[2 * o->nattach] = pool_add(pool, strs + a[i].prog);
		(*offs)[2 * o->nattach + 1] = pool_add(pool, strs + a[i].target);
		o->attach[o->nattach].flags = a[i].flags;
		o->attach[o->nattach++].kind = a[i].kind;
	}
}

/* The ELF header says a 64-bit BPF object whose section headers lie inside
 * the file: 0 with the section-name table's index, or -1 and why. */
static int check_elf(const struct vobj *o, Elf *elf, size_t *shstrndx, char *why,
		     size_t whylen)
{
	GElf_Ehdr eh;

	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		snprintf(why, whylen, "not an ELF file");
		return -1;
	}
	if (eh.e_machine != EM_BPF || gelf_getclass(elf) != ELFCLASS64) {
		snprintf(why, whylen, "not a BPF object (ELF machine %u)", eh.e_machine);
		return -1;
	}
	if (eh.e_shoff > o->size || (uint64_t)eh.e_shnum * eh.e_shentsize > o->size - eh.e_shoff ||
	    (eh.e_shnum && eh.e_shentsize != sizeof(Elf64_Shdr))) {
		snprintf(why, whylen, "truncated ELF file: its section headers lie past its "
			 "end (%zu bytes)", o->size);
		return -1;
	}
	if (elf_getshdrstrndx(elf, shstrndx)) {
		snprintf(why, whylen, "corrupted ELF: %s", elf_errmsg(-1));
		return -1;
	}
	return 0;
}

/* .BTF: parsed by libbpf, then checked for ids and names in range. */
static int read_btf(struct vobj *o, const Elf_Data *d, char *why, size_t whylen)
{
	char bad[128];

	o->btf = btf__new(d->d_buf, (uint32_t)d->d_size);
	if (!o->btf) {
		snprintf(why, whylen, "corrupted .BTF section: %s", strerror(errno));
		return -1;
	}
	if (verify_btf_check(o->btf, bad, sizeof(bad))) {
		snprintf(why, whylen, "corrupted .BTF section: %s", bad);
		return -1;
	}
	return 0;
}

/* The symbol table's functions, appended to o->funcs; their name and section name go to
 * the pool, at offsets (two a function) resolved once the pool stops moving. */
static void read_funcs(struct vobj *o, Elf *elf, size_t shstrndx, const GElf_Shdr *sh,
		       Elf_Data *d, struct strpool *pool, size_t **func_offs, size_t *nfuncs,
		       size_t *cap)
{
	size_t n = sh->sh_entsize ? d->d_size / sh->sh_entsize : 0;

	for (size_t i = 0; i < n; i++) {
		GElf_Sym sym;
		GElf_Shdr fsh;
		Elf_Scn *fscn;
		const char *sname, *fname;

		if (!gelf_getsym(d, (int)i, &sym) ||
		    GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
		    !(fscn = elf_getscn(elf, sym.st_shndx)) ||
		    !gelf_getshdr(fscn, &fsh) ||
		    !(sname = elf_strptr(elf, sh->sh_link, sym.st_name)) ||
		    !(fname = elf_strptr(elf, shstrndx, fsh.sh_name)))
			continue;
		if (*nfuncs == *cap) {
			*cap = *cap * 2 + 8;
			*func_offs = realloc(*func_offs, 2 * *cap * sizeof(**func_offs));
			o->funcs = realloc(o->funcs, *cap * sizeof(*o->funcs));
		}
		(*func_offs)[2 * *nfuncs] = pool_add(pool, sname);
		(*func_offs)[2 * *nfuncs + 1] = pool_add(pool, fname);
		o->funcs[*nfuncs].off = sym.st_value;
		o->funcs[*nfuncs].size = sym.st_size;
		(*nfuncs)++;
	}
}

int verify_obj_open(struct vobj *o, const char *path, char *why, size_t whylen)
{
	struct strpool pool = { 0 };
	size_t shstrndx, *func_offs = NULL, *meta_offs = NULL, *sec_offs = NULL, nfuncs = 0;
	size_t cap = 0;
	const void *ext = NULL;
	size_t ext_size = 0;
	Elf_Scn *scn = NULL;
	Elf *elf;
	int ret = -1;

	memset(o, 0, sizeof(*o));
	o->path = path;
	o->buf = slurp(path, &o->size);
	if (!o->buf) {
		snprintf(why, whylen, "cannot read it: %s", strerror(errno));
		return -1;
	}
	elf_version(EV_CURRENT);
	elf = elf_memory(o->buf, o->size);
	if (check_elf(o, elf, &shstrndx, why, whylen))
		goto out;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name))) {
			snprintf(why, whylen, "corrupted ELF: bad section header %zu",
				 elf_ndxscn(scn));
			goto out;
		}
		if (sh.sh_type == SHT_PROGBITS && (sh.sh_flags & SHF_EXECINSTR) &&
		    sh.sh_offset <= o->size && sh.sh_size <= o->size - sh.sh_offset) {
			o->secs = realloc(o->secs, (size_t)(o->nsecs + 1) * sizeof(*o->secs));
			sec_offs = realloc(sec_offs, (size_t)(o->nsecs + 1) * sizeof(*sec_offs));
			sec_offs[o->nsecs] = pool_add(&pool, name);
			o->secs[o->nsecs].insns = (const unsigned char *)o->buf + sh.sh_offset;
			o->secs[o->nsecs++].size = sh.sh_size;
		}
		if (strcmp(name, ".BTF") && strcmp(name, ".BTF.ext") && strcmp(name, ".dcc.meta") &&
		    sh.sh_type != SHT_SYMTAB)
			continue;
		d = section_data(scn, &sh, o->size);
		if (!d || (!d->d_buf && d->d_size)) {
			snprintf(why, whylen, "corrupted ELF: section %s lies outside the file",
				 name);
			goto out;
		}
		if (!strcmp(name, ".BTF")) {
			if (read_btf(o, d, why, whylen))
				goto out;
		} else if (!strcmp(name, ".BTF.ext")) {
			ext = d->d_buf;
			ext_size = d->d_size;
		} else if (!strcmp(name, ".dcc.meta")) {
			read_meta(o, d->d_buf, d->d_size, &pool, &meta_offs);
		} else {
			read_funcs(o, elf, shstrndx, &sh, d, &pool, &func_offs, &nfuncs, &cap);
		}
	}
	if (!o->btf) {
		snprintf(why, whylen, "no .BTF section (not compiled by dcc, or without -g)");
		goto out;
	}
	o->nfuncs = (int)nfuncs;
	o->strs = pool.buf;
	pool.buf = NULL;
	for (size_t i = 0; i < nfuncs; i++) {
		o->funcs[i].name = o->strs + func_offs[2 * i];
		o->funcs[i].sec = o->strs + func_offs[2 * i + 1];
	}
	for (int i = 0; i < o->nsecs; i++)
		o->secs[i].name = o->strs + sec_offs[i];
	for (int i = 0; i < o->nattach; i++) {
		o->attach[i].prog = o->strs + meta_offs[2 * i];
		o->attach[i].target = o->strs + meta_offs[2 * i + 1];
	}
	if (ext && verify_obj_parse_ext(o, ext, ext_size, why, whylen))
		goto out;
	ret = 0;
out:
	free(pool.buf);
	free(func_offs);
	free(meta_offs);
	free(sec_offs);
	if (elf)
		elf_end(elf);
	return ret;
}

void verify_obj_close(struct vobj *o)
{
	btf__free(o->btf);
	free(o->relos);
	free(o->lines);
	free(o->funcs);
	free(o->attach);
	free(o->secs);
	free(o->strs);
	free(o->buf);
	memset(o, 0, sizeof(*o));
}

const struct vfunc *verify_obj_func_at(const struct vobj *o, const char *sec, uint64_t insn_off)
{
	for (int i = 0; i < o->nfuncs; i++) {
		const struct vfunc *f = &o->funcs[i];

		if (!strcmp(f->sec, sec) && insn_off >= f->off && insn_off - f->off < f->size)
			return f;
	}
	return NULL;
}

const unsigned char *verify_obj_insn_at(const struct vobj *o, const char *sec, uint64_t insn_off)
{
	for (int i = 0; i < o->nsecs; i++)
		if (!strcmp(o->secs[i].name, sec))
			return insn_off % 8 == 0 && insn_off < o->secs[i].size &&
			       o->secs[i].size - insn_off >= 8 ? o->secs[i].insns + insn_off : NULL;
	return NULL;
}

const struct vline *verify_obj_line_at(const struct vobj *o, const char *sec, uint64_t insn_off)
{
	const struct vline *best = NULL;

	for (int i = 0; i < o->nlines; i++) {
		const struct vline *l = &o->lines[i];

		if (l->insn_off <= insn_off && !strcmp(l->sec, sec) &&
		    (!best || l->insn_off >= best->insn_off))
			best = l;
	}
	return best;
}

int verify_main(int argc, char **argv)
{
	const char **btfs = calloc((size_t)argc + 1, sizeof(*btfs));
	const char *obj_path = NULL;
	int nbtf = 0, ret = 0;
	bool verbose = false, json = false, table = false;
	char why[256];
	struct stat st;
	struct vobj o;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--btf") || !strncmp(a, "--btf=", 6)) {
			const char *v = a[5] == '=' ? a + 6 : (i + 1 < argc ? argv[++i] : NULL);

			if (!v || !*v) {
				fprintf(stderr, "dcc: error: --btf needs a file\n%s", verify_usage);
				free(btfs);
				return 2;
			}
			btfs[nbtf++] = v;
			table |= !stat(v, &st) && S_ISDIR(st.st_mode);
		} else if (!strcmp(a, "-f") || !strncmp(a, "--format=", 9)) {
			const char *v = a[1] == 'f' ? (i + 1 < argc ? argv[++i] : "") : a + 9;

			if (strcmp(v, "json") && strcmp(v, "text")) {
				fprintf(stderr, "dcc: error: verify's format is text or json, not "
					"'%s'\n%s", v, verify_usage);
				free(btfs);
				return 2;
			}
			json = !strcmp(v, "json");
			table |= json;
		} else if (!strcmp(a, "-v")) {
			verbose = true;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(verify_usage, stdout);
			free(btfs);
			return 0;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "dcc: error: unknown verify option '%s'\n%s", a,
				verify_usage);
			free(btfs);
			return 2;
		} else if (obj_path) {
			fprintf(stderr, "dcc: error: verify takes one object, got '%s' and "
				"'%s'\n%s", obj_path, a, verify_usage);
			free(btfs);
			return 2;
		} else {
			obj_path = a;
		}
	}
	if (!obj_path) {
		fprintf(stderr, "dcc: error: verify needs an object\n%s", verify_usage);
		free(btfs);
		return 2;
	}
	if (verify_obj_open(&o, obj_path, why, sizeof(why))) {
		fprintf(stderr, "dcc: error: %s: %s\n", obj_path, why);
		verify_obj_close(&o);
		free(btfs);
		return 1;
	}
	if (table) {
		const char *sys = VMLINUX_BTF;

		ret = verify_table(&o, nbtf ? btfs : &sys, nbtf ? nbtf : 1, json);
		verify_obj_close(&o);
		free(btfs);
		return ret;
	}
	for (int i = 0; i < (nbtf ? nbtf : 1); i++) {
		const char *p = nbtf ? btfs[i] : VMLINUX_BTF;
		libbpf_print_fn_t old = libbpf_set_print(NULL);
		struct btf *targ = btf__parse(p, NULL);
		int err = errno;

		libbpf_set_print(old);
		if (!targ) {
			fprintf(stderr, "dcc: error: cannot read BTF from %s: %s\n", p,
				err == ENOENT || err == EACCES || err == EISDIR ? strerror(err) :
				"not a BTF file nor an ELF file with a .BTF section");
			ret = 1;
			continue;
		}
		if (verify_btf_check(targ, why, sizeof(why))) {
			fprintf(stderr, "dcc: error: cannot read BTF from %s: %s\n", p, why);
			btf__free(targ);
			ret = 1;
			continue;
		}
		if (verify_core(&o, targ, p, verbose))
			ret = 1;
		btf__free(targ);
	}
	fflush(stdout);
	if (!nbtf && verify_load(&o))
		ret = 1;
	verify_obj_close(&o);
	free(btfs);
	return ret;
}
