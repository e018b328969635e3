/*
 * Metadata checks: a good blob passes; truncated, foreign, newer or
 * inconsistent blobs are refused with a one-line reason; .dcc.meta is found
 * in BPF ELF objects built here with libelf.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <sys/mman.h>
#include <unistd.h>
#include "unit/rt_build.h"

#ifndef EM_BPF
#define EM_BPF 247
#endif

static char why[256];

/* A small but complete blob: probes, a printf clause, an aggregation. */
static void *good(size_t *size)
{
	struct mb b;

	mb_init(&b);
	b.script = mb_str(&b, "hello.d");
	mb_probe(&b, DCC_PROBE_BEGIN, "dtrace", "", "", "BEGIN");
	mb_clause(&b);
	mb_action(&b, DCC_ACT_PRINTF, "%d %s\n");
	mb_int(&b, 4, 1);
	mb_string(&b, 32);
	mb_agg(&b, "", "dcc_agg0", DCC_AGG_COUNT, 8);
	mb_key(&b, DCC_K_STRING, 16, 0);
	mb_option(&b, "quiet", NULL);
	return mb_blob(&b, size);
}

static int check(const void *m, size_t n)
{
	why[0] = '\0';
	return dcc_meta_check(m, n, why, sizeof(why));
}

#define HDR(m) ((struct dcc_meta_header *)(m))

Test(rt_meta, good_blob_passes)
{
	size_t n;
	char *m = good(&n);

	cr_assert_eq(check(m, n), 0, "%s", why);
	/* an unaligned copy is fine too */
	char *u = malloc(n + 1);
	memcpy(u + 1, m, n);
	cr_assert_eq(check(u + 1, n), 0, "%s", why);
	free(u);
	free(m);
}

Test(rt_meta, truncated)
{
	size_t n;
	char *m = good(&n);

	cr_assert_eq(check(m, n - 1), -EBADMSG);
	cr_assert_str_eq(why, "truncated metadata");
	cr_assert_eq(check(m, 20), -EBADMSG);
	cr_assert_str_eq(why, "truncated metadata");
	cr_assert_eq(check(m, 3), -EBADMSG);
	cr_assert_str_eq(why, "bad metadata magic: not a dcc object");
	free(m);
}

Test(rt_meta, bad_magic_and_version)
{
	size_t n;
	char *m = good(&n);

	m[0] = 'X';
	cr_assert_eq(check(m, n), -EBADMSG);
	cr_assert_str_eq(why, "bad metadata magic: not a dcc object");
	m[0] = 'D';
	HDR(m)->version = 7;
	cr_assert_eq(check(m, n), -ENOTSUP);
	cr_assert_str_eq(why, "metadata version 7 is not supported (this runtime reads 1)");
	free(m);
}

Test(rt_meta, string_offsets_out_of_range)
{
	size_t n;
	char *m = good(&n);
	struct dcc_meta_probe *p = (void *)(m + HDR(m)->probe_off);
	struct dcc_meta_action *a = (void *)(m + HDR(m)->action_off);

	p->func = HDR(m)->str_size;
	cr_assert_eq(check(m, n), -EBADMSG);
	cr_assert_str_eq(why, "probe 0: string offset out of range");
	p->func = 0;
	a->fmt = 100000;
	cr_assert_eq(check(m, n), -EBADMSG);
	cr_assert_str_eq(why, "clause 0 action 0: string offset 100000 out of range");
	a->fmt = 0;
	HDR(m)->script = HDR(m)->str_size;
	cr_assert_eq(check(m, n), -EBADMSG);
	char expect[64];
	snprintf(expect, sizeof(expect), "script name: string offset %u out of range",
		 HDR(m)->str_size);
	cr_assert_str_eq(why, expect);
	free(m);
}

Test(rt_meta, string_table_must_end_with_nul)
{
	size_t n;
	char *m = good(&n);

	m[HDR(m)->str_off + HDR(m)->str_size - 1] = 'x';
	cr_assert_eq(check(m, n), -EBADMSG);
	cr_assert_str_eq(why, "bad metadata string table: must start and end with NUL");
	free(m);
}

Test(rt_meta, tables_out_of_range)
{
	size_t n;
	char *m = good(&n);

	HDR(m)->nclauses = 0x10000000;
	cr_assert_eq(check(m, n), -EBADMSG);
	cr_assert_str_eq(why, "truncated metadata: clause table");
	HDR(m)->nclauses = 1;
	HDR(m)->agg_off = 0xfffffff0;
	cr_assert_eq(check(m, n), -EBADMSG);
	cr_assert_str_eq(why, "truncated metadata: aggregation table");
	free(m);
}

Test(rt_meta, fields_inside_records_and_keys)
{
	size_t n;
	char *m = good(&n);
	struct dcc_meta_field *f = (void *)(m + HDR(m)->arg_off);
	struct dcc_meta_field *k = (void *)(m + HDR(m)->key_off);
	struct dcc_meta_clause *c = (void *)(m + HDR(m)->clause_off);

	f[1].offset = 40; /* a 32-byte string in a 56-byte record */
	cr_assert_eq(check(m, n), -EBADMSG);
	cr_assert_str_eq(why, "clause 0 action 0 argument 1: bytes 40..72 beyond 56");
	f[1].offset = 24;
	f[0].size = 3;
	cr_assert_eq(check(m, n), -EBADMSG);
	cr_assert_str_eq(why, "clause 0 action 0 argument 0: integer of 3 bytes");
	f[0].size = 4;
	k[0].size = 17;
	cr_assert_eq(check(m, n), -EBADMSG);
	cr_assert_str_eq(why, "aggregation 0 key 0: bytes 0..17 beyond 16");
	k[0].size = 16;
	c->epid = 2;
	cr_assert_eq(check(m, n), -EBADMSG);
	cr_assert_str_eq(why, "clause 0 has epid 2");
	c->epid = 1;
	cr_assert_eq(check(m, n), 0, "%s", why);
	free(m);
}

Test(rt_meta, aggregation_value_sizes)
{
	struct mb b;
	size_t n;
	char *m;

	mb_init(&b);
	mb_agg(&b, "lat", "m", DCC_AGG_MIN, 8);
	m = mb_blob(&b, &n);
	cr_assert_eq(check(m, n), -EBADMSG);
	cr_assert_str_eq(why, "aggregation 0: min value of 8 bytes, expected 16");
	free(m);

	mb_init(&b);
	mb_agg(&b, "h", "m", DCC_AGG_LQUANTIZE, 8 * 12);
	b.aggs[0].param[0] = 0;
	b.aggs[0].param[1] = 100;
	b.aggs[0].param[2] = 10;
	m = mb_blob(&b, &n);
	cr_assert_eq(check(m, n), 0, "%s", why);
	free(m);

	mb_init(&b);
	mb_agg(&b, "h", "m", DCC_AGG_LQUANTIZE, 8 * 12);
	b.aggs[0].param[1] = -1;
	b.aggs[0].param[2] = 10;
	m = mb_blob(&b, &n);
	cr_assert_eq(check(m, n), -EBADMSG);
	cr_assert_str_eq(why, "aggregation 0: bad lquantize parameters");
	free(m);

	/* llquantize(x, 10, 0, 2, 10): 9 + 9 + 9 + 1 positive buckets, 2n + 1 in all */
	mb_init(&b);
	mb_agg(&b, "h", "m", DCC_AGG_LLQUANTIZE, 8 * 57);
	b.aggs[0].param[0] = 10;
	b.aggs[0].param[2] = 2;
	b.aggs[0].param[3] = 10;
	m = mb_blob(&b, &n);
	cr_assert_eq(check(m, n), 0, "%s", why);
	free(m);
}

/* Found by the consumer fuzzer: a commit() with no argument read its
 * speculation id from another action's field, past the end of its record. */
Test(rt_meta, commit_and_discard_take_one_integer)
{
	static const uint32_t kinds[] = { DCC_ACT_COMMIT, DCC_ACT_DISCARD };

	for (int i = 0; i < 2; i++) {
		struct mb b;
		size_t n;
		char *m;

		mb_init(&b);
		b.script = mb_str(&b, "spec.d");
		mb_probe(&b, DCC_PROBE_BEGIN, "dtrace", "", "", "BEGIN");
		mb_clause(&b);
		mb_action(&b, DCC_ACT_PRINTF, "%d\n");
		mb_int(&b, 8, 1);
		mb_clause(&b);
		mb_action(&b, kinds[i], "");
		m = mb_blob(&b, &n);
		cr_assert_eq(check(m, n), -EBADMSG);
		cr_assert_str_eq(why, i ? "clause 1 action 0: discard takes one integer"
					: "clause 1 action 0: commit takes one integer");
		free(m);
	}
}

Test(rt_meta, runtime_new_refuses_bad_metadata)
{
	struct dcc_runtime_opts o = { .sz = sizeof(o), .progname = "dtrun" };
	char *ebuf = NULL;
	size_t elen = 0, n;
	char *m = good(&n);

	o.err = open_memstream(&ebuf, &elen);
	HDR(m)->version = 2;
	errno = 0;
	cr_assert_null(dcc_runtime__new(m, n, &o));
	cr_assert_eq(errno, ENOTSUP);
	fflush(o.err);
	cr_assert_str_eq(ebuf,
			 "dtrun: metadata version 2 is not supported (this runtime reads 1)\n");
	fclose(o.err);
	free(ebuf);
	free(m);
}

/* An ELF relocatable for `machine` with an optional section `sec` holding
 * data; built with libelf in a memfd and read back. */
static char *make_elf(int machine, const char *sec, const void *data, size_t dn, size_t *size)
{
	char shstr[64] = "\0.shstrtab";
	size_t shlen = 11;
	Elf_Scn *strscn, *scn;
	Elf64_Shdr *sh;
	Elf_Data *d;
	Elf64_Ehdr *eh;
	char *buf;
	Elf *e;
	int fd;

	if (sec) {
		strcpy(shstr + shlen, sec);
		shlen += strlen(sec) + 1;
	}
	cr_assert_neq(elf_version(EV_CURRENT), EV_NONE);
	fd = memfd_create("elf", 0);
	cr_assert_geq(fd, 0);
	e = elf_begin(fd, ELF_C_WRITE, NULL);
	cr_assert_not_null(e, "%s", elf_errmsg(-1));
	eh = elf64_newehdr(e);
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_type = ET_REL;
	eh->e_machine = machine;
	eh->e_version = EV_CURRENT;

	strscn = elf_newscn(e);
	d = elf_newdata(strscn);
	d->d_buf = shstr;
	d->d_size = shlen;
	d->d_type = ELF_T_BYTE;
	d->d_align = 1;
	sh = elf64_getshdr(strscn);
	sh->sh_name = 1;
	sh->sh_type = SHT_STRTAB;
	eh->e_shstrndx = elf_ndxscn(strscn);
	if (sec) {
		scn = elf_newscn(e);
		d = elf_newdata(scn);
		d->d_buf = (void *)data;
		d->d_size = dn;
		d->d_type = ELF_T_BYTE;
		d->d_align = 8;
		sh = elf64_getshdr(scn);
		sh->sh_name = 11;
		sh->sh_type = SHT_PROGBITS;
		sh->sh_addralign = 8;
	}
	cr_assert_gt(elf_update(e, ELF_C_WRITE), 0, "%s", elf_errmsg(-1));
	elf_end(e);
	*size = lseek(fd, 0, SEEK_END);
	buf = malloc(*size);
	cr_assert_eq(pread(fd, buf, *size, 0), (ssize_t)*size);
	close(fd);
	return buf;
}

static int from_elf(const char *elf, size_t n, const void **meta, size_t *msize)
{
	why[0] = '\0';
	return dcc_meta_from_elf(elf, n, meta, msize, why, sizeof(why));
}

Test(rt_meta, elf_with_the_section)
{
	size_t n, en, msize = 0;
	char *m = good(&n);
	char *elf = make_elf(EM_BPF, DCC_META_SECTION, m, n, &en);
	const void *meta = NULL;

	cr_assert_eq(from_elf(elf, en, &meta, &msize), 0, "%s", why);
	cr_assert_eq(msize, n);
	cr_assert(meta > (const void *)elf && (const char *)meta + msize <= elf + en);
	cr_assert_eq(memcmp(meta, m, n), 0);
	free(elf);
	free(m);
}

Test(rt_meta, elf_refusals)
{
	size_t n, en, msize;
	char *m = good(&n), *elf;
	const void *meta;

	cr_assert_eq(from_elf("#!/bin/sh\necho hi\n", 18, &meta, &msize), -ENOEXEC);
	cr_assert_str_eq(why, "not an ELF file");
	cr_assert_eq(from_elf("\177EL", 3, &meta, &msize), -ENOEXEC);
	cr_assert_str_eq(why, "not an ELF file");

	elf = make_elf(EM_X86_64, DCC_META_SECTION, m, n, &en);
	cr_assert_eq(from_elf(elf, en, &meta, &msize), -ENOEXEC);
	cr_assert_str_eq(why, "not a BPF object");
	free(elf);

	elf = make_elf(EM_BPF, ".text", m, n, &en);
	cr_assert_eq(from_elf(elf, en, &meta, &msize), -ENOEXEC);
	cr_assert_str_eq(why, "no .dcc.meta section: not a dcc object");
	free(elf);

	elf = make_elf(EM_BPF, NULL, NULL, 0, &en);
	cr_assert_eq(from_elf(elf, en, &meta, &msize), -ENOEXEC);
	cr_assert_str_eq(why, "no .dcc.meta section: not a dcc object");
	free(elf);

	HDR(m)->version = 7;
	elf = make_elf(EM_BPF, DCC_META_SECTION, m, n, &en);
	cr_assert_eq(from_elf(elf, en, &meta, &msize), -ENOTSUP);
	cr_assert_str_eq(why, "metadata version 7 is not supported (this runtime reads 1)");
	free(elf);
	free(m);
}

Test(rt_meta, truncated_elf)
{
	size_t n, en, msize;
	char *m = good(&n);
	char *elf = make_elf(EM_BPF, DCC_META_SECTION, m, n, &en);
	const void *meta;
	int err;

	/* libelf puts the section headers last: cut them off */
	err = from_elf(elf, en - 10, &meta, &msize);
	cr_assert_lt(err, 0);
	cr_assert_neq(why[0], '\0');
	/* keep the headers, cut the section short by pointing past the end */
	err = from_elf(elf, 64, &meta, &msize);
	cr_assert_lt(err, 0);
	cr_assert_neq(why[0], '\0');
	free(elf);
	free(m);
}
