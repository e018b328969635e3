/*
 * Reading what a dcc object needs without loading it: its programs (libbpf
 * opens the object, which loads nothing), the helpers each one calls (every
 * `call` of its instructions, and of the .text functions it calls: ERROR
 * clauses, timer clauses), its maps, the functions it leaves undefined
 * (kfuncs), whether it has CO-RE relocations, and its .dcc.meta section.
 */
#include "info.h"
#include "internal.h"

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>
#include <linux/bpf.h>

/* <linux/bpf.h> of this system: FN(name) entries separated by commas */
#define HELPER_NAME(x, ...) [BPF_FUNC_##x] = #x
static const char *const helper_names[] = { __BPF_FUNC_MAPPER(HELPER_NAME) };
#undef HELPER_NAME

const char *info_helper_name(unsigned id)
{
	return id && id < sizeof(helper_names) / sizeof(helper_names[0]) ? helper_names[id] : NULL;
}

static int quiet_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level, (void)fmt, (void)ap;
	return 0;
}

/* Helper ids called by n instructions at insns; *sub set by a call of a .text function. */
static void scan_insns(const struct bpf_insn *insns, size_t n, uint8_t *helpers, bool *sub)
{
	for (size_t i = 0; i < n; i++) {
		const struct bpf_insn *in = &insns[i];
		if (in->code != (BPF_JMP | BPF_CALL))
			continue;
		if (in->src_reg == BPF_PSEUDO_CALL)
			*sub = true;
		else if (in->src_reg == 0 && in->imm > 0 && in->imm < INFO_MAX_HELPERS)
			helpers[in->imm] = 1;
	}
}

/* From libelf: .text's helpers, the undefined functions, CO-RE relocations, .dcc.meta. */
static int scan_elf(const void *obj, size_t size, struct info *in, uint8_t *text_helpers,
		    char *why, size_t whylen)
{
	Elf *elf;
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	bool unused = false;

	elf_version(EV_CURRENT);
	elf = elf_memory((char *)obj, size);
	if (!elf || elf_getshdrstrndx(elf, &shstrndx)) {
		snprintf(why, whylen, "not an ELF file");
		if (elf)
			elf_end(elf);
		return -1;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)) ||
		    sh.sh_type == SHT_NOBITS || sh.sh_offset > size || sh.sh_size > size - sh.sh_offset)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf)
			continue;
		if (!strcmp(name, ".text"))
			scan_insns(d->d_buf, d->d_size / sizeof(struct bpf_insn), text_helpers, &unused);
		else if (!strcmp(name, ".dcc.meta")) {
			in->meta = (const char *)obj + sh.sh_offset;
			in->meta_size = sh.sh_size;
		} else if (!strcmp(name, ".BTF.ext") && d->d_size >= 32) {
			uint32_t hdr_len, relo_len;
			memcpy(&hdr_len, (const char *)d->d_buf + 4, 4);
			memcpy(&relo_len, (const char *)d->d_buf + 28, 4);
			in->core = hdr_len >= 32 && relo_len > 0;
		} else if (sh.sh_type == SHT_SYMTAB && sh.sh_entsize) {
			for (size_t i = 0; i < d->d_size / sh.sh_entsize; i++) {
				GElf_Sym s;
				const char *sn;
				if (!gelf_getsym(d, (int)i, &s) || s.st_shndx != SHN_UNDEF ||
				    GELF_ST_BIND(s.st_info) != STB_GLOBAL ||
				    GELF_ST_TYPE(s.st_info) != STT_FUNC ||
				    !(sn = elf_strptr(elf, sh.sh_link, s.st_name)) || !*sn)
					continue;
				in->kfuncs = realloc(in->kfuncs, (size_t)(in->nkfuncs + 1) *
						     sizeof(*in->kfuncs));
				in->kfuncs[in->nkfuncs++] = strdup(sn);
			}
		}
	}
	elf_end(elf);
	return 0;
}

/* One program of section sec (named sname): insns bytes from off within data. */
static void add_prog(struct info *in, const char *name, const char *sname, Elf_Data *data,
		     uint64_t off, uint64_t len, const uint8_t *text_helpers)
{
	enum bpf_prog_type type = BPF_PROG_TYPE_UNSPEC;
	enum bpf_attach_type attach;
	struct info_prog *ip;

	if (off > data->d_size || len > data->d_size - off ||
	    libbpf_prog_type_by_name(sname, &type, &attach))
		return; /* libbpf would refuse it too: the load says why */
	in->progs = realloc(in->progs, (size_t)(in->nprogs + 1) * sizeof(*in->progs));
	ip = memset(&in->progs[in->nprogs++], 0, sizeof(*ip));
	ip->name = strdup(name);
	ip->section = strdup(sname);
	ip->type = type;
	ip->insns = len / sizeof(struct bpf_insn);
	scan_insns((const struct bpf_insn *)((const char *)data->d_buf + off), ip->insns,
		   ip->helpers, &ip->calls_subprogs);
	if (ip->calls_subprogs)
		for (int k = 0; k < INFO_MAX_HELPERS; k++)
			ip->helpers[k] |= text_helpers[k];
	if (type == BPF_PROG_TYPE_TRACING)
		in->core = true;
}

/* The programs as libbpf finds them, from libelf alone: each global function
 * of an executable section but .text, its type from the section's name. */
static int scan_elf_progs(const void *obj, size_t size, struct info *in,
			  const uint8_t *text_helpers)
{
	Elf *elf = elf_memory((char *)obj, size);
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx)) {
		if (elf)
			elf_end(elf);
		return -1;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < d->d_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			GElf_Shdr ps;
			Elf_Scn *pscn;
			Elf_Data *pd;
			const char *sn, *pname;

			if (!gelf_getsym(d, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC ||
			    GELF_ST_BIND(s.st_info) != STB_GLOBAL || s.st_shndx == SHN_UNDEF ||
			    s.st_shndx >= SHN_LORESERVE ||
			    !(pscn = elf_getscn(elf, s.st_shndx)) || !gelf_getshdr(pscn, &ps) ||
			    ps.sh_type != SHT_PROGBITS || !(ps.sh_flags & SHF_EXECINSTR) ||
			    !(pname = elf_strptr(elf, shstrndx, ps.sh_name)) ||
			    !strcmp(pname, ".text") ||
			    !(sn = elf_strptr(elf, sh.sh_link, s.st_name)) || !*sn ||
			    !(pd = elf_getdata(pscn, NULL)) || !pd->d_buf)
				continue;
			add_prog(in, sn, pname, pd, s.st_value, s.st_size, text_helpers);
		}
	}
	elf_end(elf);
	return 0;
}

int info_scan_progs(const void *obj, size_t size, struct info *in, char *why, size_t whylen)
{
	uint8_t text_helpers[INFO_MAX_HELPERS] = { 0 };

	memset(in, 0, sizeof(*in));
	if (scan_elf(obj, size, in, text_helpers, why, whylen) ||
	    scan_elf_progs(obj, size, in, text_helpers)) {
		info_free(in);
		return -1;
	}
	return 0;
}

int info_scan(const void *obj, size_t size, bool trusted, struct info *in, char *why,
	      size_t whylen)
{
	/* a fixed object name: libbpf names .rodata's map after it */
	LIBBPF_OPTS(bpf_object_open_opts, oo, .object_name = "dcc");
	uint8_t text_helpers[INFO_MAX_HELPERS] = { 0 };
	struct bpf_program *p;
	struct bpf_map *m;
	struct bpf_object *bo;
	libbpf_print_fn_t old;

	memset(in, 0, sizeof(*in));
	if (scan_elf(obj, size, in, text_helpers, why, whylen) ||
	    (!trusted && loader_open_in_child(obj, size, why, whylen))) {
		info_free(in);
		return -1;
	}
	old = libbpf_set_print(quiet_print);
	bo = bpf_object__open_mem(obj, size, &oo);
	libbpf_set_print(old);
	if (!bo) {
		snprintf(why, whylen, "libbpf cannot open it: %s", strerror(errno));
		info_free(in); /* the kfuncs scan_elf found */
		return -1;
	}
	bpf_object__for_each_program(p, bo) {
		struct info_prog *ip;
		in->progs = realloc(in->progs, (size_t)(in->nprogs + 1) * sizeof(*in->progs));
		ip = memset(&in->progs[in->nprogs++], 0, sizeof(*ip));
		ip->name = strdup(bpf_program__name(p));
		ip->section = strdup(bpf_program__section_name(p));
		ip->type = bpf_program__type(p);
		ip->insns = bpf_program__insn_cnt(p);
		scan_insns(bpf_program__insns(p), ip->insns, ip->helpers, &ip->calls_subprogs);
		if (ip->calls_subprogs)
			for (int k = 0; k < INFO_MAX_HELPERS; k++)
				ip->helpers[k] |= text_helpers[k];
		if (ip->type == BPF_PROG_TYPE_TRACING)
			in->core = true; /* fentry/fexit/tp_btf attach by the kernel's BTF */
	}
	bpf_object__for_each_map(m, bo) {
		struct info_map *im;
		in->maps = realloc(in->maps, (size_t)(in->nmaps + 1) * sizeof(*in->maps));
		im = &in->maps[in->nmaps++];
		im->name = strdup(bpf_map__name(m));
		im->type = bpf_map__type(m);
		im->key_size = bpf_map__key_size(m);
		im->value_size = bpf_map__value_size(m);
		im->max_entries = bpf_map__max_entries(m);
	}
	bpf_object__close(bo);
	return 0;
}

void info_free(struct info *in)
{
	for (int i = 0; i < in->nprogs; i++) {
		free(in->progs[i].name);
		free(in->progs[i].section);
	}
	for (int i = 0; i < in->nmaps; i++)
		free(in->maps[i].name);
	for (int i = 0; i < in->nkfuncs; i++)
		free(in->kfuncs[i]);
	free(in->progs);
	free(in->maps);
	free(in->kfuncs);
	memset(in, 0, sizeof(*in));
}
