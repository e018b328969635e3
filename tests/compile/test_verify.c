/*
 * `dcc verify OBJ --btf FILE`: CO-RE relocations of a compiled object checked
 * against small BTF files built here with libbpf's btf__add_* API, no kernel
 * needed; plus the one-line refusals of files that are not BPF objects and
 * the usage errors. Scripts come from tests/data/verify/ and are compiled in
 * a temporary folder so messages name them "ppid.d".
 */
#include <criterion/criterion.h>
#include <bpf/btf.h>
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"

static char dir[64];

static void rm_dir(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", dir);
}

/* Copy tests/data/verify/NAME.d into the folder and compile it there. */
static void compile(const char *name)
{
	char path[512], cmd[1024];
	struct run_result r;
	size_t len;
	char *src;

	snprintf(path, sizeof(path), "%s/data/verify/%s.d", TESTS_SRC_DIR, name);
	src = read_file(path, &len);
	cr_assert(src, "missing %s", path);
	snprintf(path, sizeof(path), "%s/%s.d", dir, name);
	cr_assert_eq(write_file(path, src, len), 0);
	free(src);
	snprintf(cmd, sizeof(cmd), "cd %s && %s %s.d -o %s.bpf.o", dir, DCC_BIN, name, name);
	run_sh(&r, cmd, 60);
	cr_assert_eq(r.status, 0, "compiling %s.d: %s", name, r.err);
	run_result_free(&r);
}

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/dcc_verify_XXXXXX");
	cr_assert(mkdtemp(dir));
	compile("ppid");
}

TestSuite(verify, .init = setup, .fini = rm_dir);

/* `cd dir && dcc verify ARGS` */
static void verify(struct run_result *r, const char *args)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "cd %s && %s verify %s", dir, DCC_BIN, args);
	run_sh(r, cmd, 60);
}

enum fkind {
	F_INT,      /* int */
	F_PTR,      /* struct task_struct * */
	F_COMM,     /* char[16] */
	F_ANON,     /* anonymous union { task_struct *real_parent, *parent_alias; } */
	F_STRUCT,   /* a struct list_head { void *next, *prev; } */
};

struct field {
	const char *name;
	enum fkind kind;
	unsigned off;   /* bytes */
};

/* Write a BTF file holding struct NAME with these fields (pointers point back
 * at it), plus what they need. */
static void make_btf(const char *file, const char *name, const struct field *f, int n,
		     unsigned size)
{
	struct btf *b = btf__new_empty();
	int i32, chr, comm, sid, ptr, anon = 0, list = 0, vptr;
	const void *raw;
	char path[256];
	uint32_t sz;

	cr_assert(b);
	i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	chr = btf__add_int(b, "char", 1, BTF_INT_SIGNED);
	comm = btf__add_array(b, i32, chr, 16);
	vptr = btf__add_ptr(b, 0);
	/* the struct comes after its pointer, the union and the list type */
	sid = btf__type_cnt(b) + 3;
	ptr = btf__add_ptr(b, sid);
	anon = btf__add_union(b, NULL, 8);
	btf__add_field(b, "real_parent", ptr, 0, 0);
	btf__add_field(b, "parent_alias", ptr, 0, 0);
	list = btf__add_struct(b, "list_head", 16);
	btf__add_field(b, "next", vptr, 0, 0);
	btf__add_field(b, "prev", vptr, 64, 0);
	cr_assert_eq(btf__add_struct(b, name, size), sid);
	for (int i = 0; i < n; i++) {
		int t = f[i].kind == F_INT ? i32 : f[i].kind == F_PTR ? ptr :
			f[i].kind == F_COMM ? comm : f[i].kind == F_ANON ? anon : list;

		cr_assert_eq(btf__add_field(b, f[i].kind == F_ANON ? NULL : f[i].name, t,
					    f[i].off * 8, 0), 0);
	}
	raw = btf__raw_data(b, &sz);
	cr_assert(raw);
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	cr_assert_eq(write_file(path, raw, sz), 0);
	btf__free(b);
}

static void expect(const char *args, int status, const char *out, const char *err)
{
	struct run_result r;

	verify(&r, args);
	cr_expect_str_eq(r.out, out, "dcc verify %s: stdout\n%s", args, r.out);
	cr_expect_str_eq(r.err, err, "dcc verify %s: stderr\n%s", args, r.err);
	cr_expect_eq(r.status, status, "dcc verify %s: status %d", args, r.status);
	run_result_free(&r);
}

Test(verify, reordered_fields_resolve)
{
	/* other offsets, another order, real_parent inside an anonymous union */
	static const struct field f[] = {
		{ "tgid", F_INT, 0 }, { "pid", F_INT, 4 }, { "tasks", F_STRUCT, 8 },
		{ "comm", F_COMM, 24 }, { NULL, F_ANON, 40 },
	};

	make_btf("reordered.btf", "task_struct", f, 5, 48);
	expect("ppid.bpf.o --btf reordered.btf", 0,
	       "ppid.bpf.o: 2 relocations resolve against reordered.btf\n", "");
	/* -v: each relocation's value in the object and in the target */
	expect("-v ppid.bpf.o --btf reordered.btf", 0,
	       "\tdcc_c1 (ppid.d:3): byte_off task_struct.real_parent: 8, 40 in reordered.btf\n"
	       "\tdcc_c1 (ppid.d:3): byte_off task_struct.tgid: 16, 0 in reordered.btf\n"
	       "ppid.bpf.o: 2 relocations resolve against reordered.btf\n", "");
}

Test(verify, missing_real_parent)
{
	static const struct field f[] = {
		{ "pid", F_INT, 0 }, { "tgid", F_INT, 4 }, { "comm", F_COMM, 8 },
	};

	make_btf("no_parent.btf", "task_struct", f, 3, 24);
	expect("ppid.bpf.o --btf no_parent.btf", 1,
	       "ppid.bpf.o: dcc_c1 (tracepoint/syscalls/sys_enter_getppid, ppid.d:3): field "
	       "task_struct.real_parent (byte_off) does not exist in no_parent.btf\n", "");
}

Test(verify, missing_tgid)
{
	static const struct field f[] = {
		{ "real_parent", F_PTR, 0 }, { "pid", F_INT, 8 },
	};

	make_btf("no_tgid.btf", "task_struct", f, 2, 16);
	expect("ppid.bpf.o --btf no_tgid.btf", 1,
	       "ppid.bpf.o: dcc_c1 (tracepoint/syscalls/sys_enter_getppid, ppid.d:3): field "
	       "task_struct.tgid (byte_off) does not exist in no_tgid.btf\n", "");
}

Test(verify, incompatible_member)
{
	/* real_parent an int: a pointer is read from it in the object */
	static const struct field f[] = {
		{ "real_parent", F_INT, 0 }, { "tgid", F_INT, 4 },
	};

	make_btf("int_parent.btf", "task_struct", f, 2, 8);
	expect("ppid.bpf.o --btf int_parent.btf", 1,
	       "ppid.bpf.o: dcc_c1 (tracepoint/syscalls/sys_enter_getppid, ppid.d:3): field "
	       "task_struct.real_parent (byte_off) is an integer in int_parent.btf, a pointer "
	       "in the object\n", "");
}

Test(verify, no_such_struct)
{
	static const struct field f[] = { { "real_parent", F_PTR, 0 }, { "tgid", F_INT, 8 } };

	make_btf("other.btf", "thread_info", f, 2, 16);
	expect("ppid.bpf.o --btf other.btf", 1,
	       "ppid.bpf.o: dcc_c1 (tracepoint/syscalls/sys_enter_getppid, ppid.d:3): field "
	       "task_struct.real_parent (byte_off): struct task_struct does not exist in "
	       "other.btf\n", "");
}

Test(verify, flavored_target_name)
{
	/* "task_struct___v2" is a flavor of task_struct, as libbpf sees it */
	static const struct field f[] = { { "tgid", F_INT, 0 }, { "real_parent", F_PTR, 8 } };

	make_btf("flavor.btf", "task_struct___v2", f, 2, 16);
	expect("ppid.bpf.o -v --btf flavor.btf", 0,
	       "\tdcc_c1 (ppid.d:3): byte_off task_struct.real_parent: 8, 8 in flavor.btf\n"
	       "\tdcc_c1 (ppid.d:3): byte_off task_struct.tgid: 16, 0 in flavor.btf\n"
	       "ppid.bpf.o: 2 relocations resolve against flavor.btf\n", "");
	/* and a longer name is another struct */
	make_btf("longer.btf", "task_structs", f, 2, 16);
	expect("ppid.bpf.o --btf longer.btf", 1,
	       "ppid.bpf.o: dcc_c1 (tracepoint/syscalls/sys_enter_getppid, ppid.d:3): field "
	       "task_struct.real_parent (byte_off): struct task_struct does not exist in "
	       "longer.btf\n", "");
}

Test(verify, ambiguous_candidates)
{
	/* two task_struct flavors that disagree on where real_parent is */
	struct btf *b = btf__new_empty();
	int i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	int p1 = btf__add_ptr(b, i32 + 3), p2 = btf__add_ptr(b, i32 + 4);
	const void *raw;
	char path[256];
	uint32_t sz;

	cr_assert_eq(btf__add_struct(b, "task_struct", 16), i32 + 3);
	btf__add_field(b, "real_parent", p1, 0, 0);
	btf__add_field(b, "tgid", i32, 64, 0);
	cr_assert_eq(btf__add_struct(b, "task_struct___old", 16), i32 + 4);
	btf__add_field(b, "tgid", i32, 0, 0);
	btf__add_field(b, "real_parent", p2, 64, 0);
	raw = btf__raw_data(b, &sz);
	snprintf(path, sizeof(path), "%s/two.btf", dir);
	cr_assert_eq(write_file(path, raw, sz), 0);
	btf__free(b);
	expect("ppid.bpf.o --btf two.btf", 1,
	       "ppid.bpf.o: dcc_c1 (tracepoint/syscalls/sys_enter_getppid, ppid.d:3): field "
	       "task_struct.real_parent (byte_off) is ambiguous in two.btf: types [4] and [5] "
	       "give 0 and 8\n", "");
}

Test(verify, several_btfs_each_judged)
{
	static const struct field good[] = { { "real_parent", F_PTR, 16 }, { "tgid", F_INT, 4 } };
	static const struct field bad[] = { { "real_parent", F_PTR, 16 } };

	make_btf("good.btf", "task_struct", good, 2, 24);
	make_btf("bad.btf", "task_struct", bad, 1, 24);
	expect("--btf bad.btf ppid.bpf.o --btf=good.btf", 1,
	       "ppid.bpf.o: dcc_c1 (tracepoint/syscalls/sys_enter_getppid, ppid.d:3): field "
	       "task_struct.tgid (byte_off) does not exist in bad.btf\n"
	       "ppid.bpf.o: 2 relocations resolve against good.btf\n", "");
	expect("ppid.bpf.o --btf good.btf --btf good.btf", 0,
	       "ppid.bpf.o: 2 relocations resolve against good.btf\n"
	       "ppid.bpf.o: 2 relocations resolve against good.btf\n", "");
}

Test(verify, program_named_in_multi_program_object)
{
	static const struct field f[] = { { "tgid", F_INT, 0 } };

	compile("two");
	make_btf("tgid_only.btf", "task_struct", f, 1, 8);
	expect("two.bpf.o --btf tgid_only.btf", 1,
	       "two.bpf.o: dcc_c2 (tracepoint/syscalls/sys_enter_getppid, two.d:8): field "
	       "task_struct.real_parent (byte_off) does not exist in tgid_only.btf\n", "");
}

Test(verify, object_without_relocations)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/hello.d", dir);
	cr_assert_eq(write_file(path, "BEGIN\n{\n\ttrace(1);\n}\n", 20), 0);
	make_btf("empty.btf", "nothing", NULL, 0, 0);
	{
		char cmd[512];
		struct run_result r;

		snprintf(cmd, sizeof(cmd), "cd %s && %s hello.d -o hello.bpf.o", dir, DCC_BIN);
		run_sh(&r, cmd, 60);
		cr_assert_eq(r.status, 0, "%s", r.err);
		run_result_free(&r);
	}
	expect("hello.bpf.o --btf empty.btf", 0,
	       "hello.bpf.o: 0 relocations resolve against empty.btf\n", "");
}

Test(verify, not_elf)
{
	expect("ppid.d --btf /nonexistent", 1, "", "dcc: error: ppid.d: not an ELF file\n");
}

Test(verify, truncated_object)
{
	char path[512];
	size_t len;
	char *obj;

	snprintf(path, sizeof(path), "%s/ppid.bpf.o", dir);
	obj = read_file(path, &len);
	cr_assert(obj && len > 2000);
	snprintf(path, sizeof(path), "%s/cut.bpf.o", dir);
	cr_assert_eq(write_file(path, obj, 2000), 0);
	free(obj);
	expect("cut.bpf.o", 1, "", "dcc: error: cut.bpf.o: truncated ELF file: its section "
	       "headers lie past its end (2000 bytes)\n");
	snprintf(path, sizeof(path), "%s/tiny.bpf.o", dir);
	cr_assert_eq(write_file(path, "\177ELF", 4), 0);
	expect("tiny.bpf.o", 1, "", "dcc: error: tiny.bpf.o: not an ELF file\n");
}

Test(verify, not_bpf)
{
	char cmd[512];
	struct run_result r;

	snprintf(cmd, sizeof(cmd), "cp %s %s/host.o", DCC_BIN, dir);
	run_sh(&r, cmd, 10);
	run_result_free(&r);
	expect("host.o", 1, "", "dcc: error: host.o: not a BPF object (ELF machine 62)\n");
}

Test(verify, missing_object)
{
	expect("nothere.bpf.o", 1, "",
	       "dcc: error: nothere.bpf.o: cannot read it: No such file or directory\n");
}

Test(verify, bad_btf_file)
{
	expect("ppid.bpf.o --btf ppid.d", 1, "", "dcc: error: cannot read BTF from ppid.d: "
	       "not a BTF file nor an ELF file with a .BTF section\n");
	expect("ppid.bpf.o --btf nothere.btf", 1, "",
	       "dcc: error: cannot read BTF from nothere.btf: No such file or directory\n");
}

#define USAGE \
	"usage: dcc verify [-v] [-f text|json] object.bpf.o [--btf FILE|DIR ...]\n" \
	"  --btf FILE   check the CO-RE relocations against FILE's BTF (default: this\n" \
	"               kernel's, and then its verifier loads every program)\n" \
	"  --btf DIR    every *.btf file under DIR (BTFHub's layout), as a table of\n" \
	"               which probe resolves on which kernel\n" \
	"  -f json      that table as JSON (also with --btf FILE)\n" \
	"  -v           each relocation that resolves, with its values\n" \
	"exit status: 0 when everything resolves, 1 when something does not\n"

Test(verify, usage)
{
	expect("", 2, "", "dcc: error: verify needs an object\n" USAGE);
	expect("--btf x.btf", 2, "", "dcc: error: verify needs an object\n" USAGE);
	expect("ppid.bpf.o --btf", 2, "", "dcc: error: --btf needs a file\n" USAGE);
	expect("ppid.bpf.o --btf=", 2, "", "dcc: error: --btf needs a file\n" USAGE);
	expect("ppid.bpf.o -x", 2, "", "dcc: error: unknown verify option '-x'\n" USAGE);
	expect("ppid.bpf.o ppid.d", 2, "",
	       "dcc: error: verify takes one object, got 'ppid.bpf.o' and 'ppid.d'\n" USAGE);
	expect("--help", 0, USAGE, "");
}

Test(verify, corrupted_btf_file)
{
	static const struct field f[] = { { "tgid", F_INT, 0 } };
	char path[512];
	size_t len;
	char *raw;
	uint32_t hdr_len, type_off, bad = 0xffffff;

	make_btf("broken.btf", "task_struct", f, 1, 8);
	snprintf(path, sizeof(path), "%s/broken.btf", dir);
	raw = read_file(path, &len);
	cr_assert(raw && len > 40);
	/* the first type's name_off, past the header and the type section's start */
	memcpy(&hdr_len, raw + 4, 4);
	memcpy(&type_off, raw + 8, 4);
	memcpy(raw + hdr_len + type_off, &bad, 4);
	cr_assert_eq(write_file(path, raw, len), 0);
	free(raw);
	expect("ppid.bpf.o --btf broken.btf", 1, "", "dcc: error: cannot read BTF from "
	       "broken.btf: type [1] refers to a name or a type it does not hold\n");
}

/* The file offset of section name in an ELF file. */
static size_t section_offset(const char *obj, size_t len, const char *name)
{
	const Elf64_Ehdr *eh = (const void *)obj;
	const Elf64_Shdr *sh = (const void *)(obj + eh->e_shoff);
	const char *names = obj + sh[eh->e_shstrndx].sh_offset;

	cr_assert(eh->e_shoff + (size_t)eh->e_shnum * sizeof(*sh) <= len);
	for (int i = 0; i < eh->e_shnum; i++)
		if (!strcmp(names + sh[i].sh_name, name))
			return sh[i].sh_offset;
	cr_assert_fail("no section %s", name);
	return 0;
}

Test(verify, corrupted_btf_ext)
{
	char path[512];
	size_t len, ext;
	uint32_t hdr_len, relo_off, bad = 9999;
	char *obj;

	snprintf(path, sizeof(path), "%s/ppid.bpf.o", dir);
	obj = read_file(path, &len);
	cr_assert(obj);
	ext = section_offset(obj, len, ".BTF.ext");
	memcpy(&hdr_len, obj + ext + 4, 4);
	memcpy(&relo_off, obj + ext + 24, 4);
	/* rec_size, sec_name_off, num_info, then the first record's type_id */
	memcpy(obj + ext + hdr_len + relo_off + 16, &bad, 4);
	snprintf(path, sizeof(path), "%s/badext.bpf.o", dir);
	cr_assert_eq(write_file(path, obj, len), 0);
	expect("badext.bpf.o --btf /nonexistent", 1, "", "dcc: error: badext.bpf.o: corrupted "
	       ".BTF.ext: core_relo record 0 of tracepoint/syscalls/sys_enter_getppid refers to "
	       "nothing in .BTF\n");
	/* a section count past the end */
	bad = 1000;
	memcpy(obj + ext + hdr_len + relo_off + 8, &bad, 4);
	cr_assert_eq(write_file(path, obj, len), 0);
	expect("badext.bpf.o", 1, "", "dcc: error: badext.bpf.o: corrupted .BTF.ext: core_relo "
	       "of tracepoint/syscalls/sys_enter_getppid holds 1000 records\n");
	free(obj);
}

/* tests/data/verify/kinds.bpf.c has a relocation of every kind. */
static void compile_kinds(void)
{
	char cmd[1024];
	struct run_result r;

	snprintf(cmd, sizeof(cmd), "cd %s && cp %s/data/verify/kinds.bpf.c . && clang-19 "
		 "-target bpf -fdebug-compilation-dir=. -O2 -g "
		 "-I/usr/include/$(gcc -print-multiarch) -c kinds.bpf.c -o kinds.bpf.o",
		 dir, TESTS_SRC_DIR);
	run_sh(&r, cmd, 60);
	cr_assert_eq(r.status, 0, "clang-19: %s", r.err);
	run_result_free(&r);
}

/* struct dcc_kt laid out differently, under a flavored name: small missing,
 * the bit-fields in a short, a longer array; enum dcc_ke with other values;
 * struct dcc_kd with u an unsigned short first, and per kd: 0 s an int, 1 s a
 * short (a signed field of another size), 2 a at offset 40000. */
static void kinds_btf(const char *file, bool with_mode, int kd)
{
	struct btf *b = btf__new_empty();
	int i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	int u16 = btf__add_int(b, "unsigned short", 2, 0);
	int i64 = btf__add_int(b, "long", 8, BTF_INT_SIGNED);
	int arr = btf__add_array(b, i32, i64, 8);
	int ptr = btf__add_ptr(b, arr + 2);
	const void *raw;
	char path[256];
	uint32_t sz;

	cr_assert_eq(btf__add_struct(b, "dcc_kt___v2", 96), arr + 2);
	btf__add_field(b, "pad", i64, 0, 0);
	btf__add_field(b, "next", ptr, 64, 0);
	btf__add_field(b, "flags", u16, 128, 3);
	if (with_mode)
		btf__add_field(b, "mode", u16, 131, 5);
	btf__add_field(b, "a", i32, 160, 0);
	btf__add_field(b, "arr", arr, 192, 0);
	btf__add_typedef(b, "dcc_kt_t", arr + 2);
	btf__add_enum(b, "dcc_ke", 4);
	btf__add_enum_value(b, "DCC_KE_B", 42);
	btf__add_enum_value(b, "DCC_KE_A", 2);
	{
		int u = btf__add_int(b, "unsigned short", 2, 0);
		int s16 = btf__add_int(b, "short", 2, BTF_INT_SIGNED);

		btf__add_struct(b, "dcc_kd", kd == 2 ? 40008 : 12);
		btf__add_field(b, "u", u, 0, 0);
		btf__add_field(b, "a", i32, kd == 2 ? 320000 : 32, 0);
		btf__add_field(b, "s", kd == 1 ? s16 : i32, 64, 0);
	}
	raw = btf__raw_data(b, &sz);
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	cr_assert_eq(write_file(path, raw, sz), 0);
	btf__free(b);
}

Test(verify, every_relocation_kind)
{
	compile_kinds();
	kinds_btf("kt.btf", true, 0);
	expect("-v kinds.bpf.o --btf kt.btf", 0,
	       "\tdcc_kinds (./kinds.bpf.c:26): byte_off dcc_kt.next: 8, 8 in kt.btf\n"
	       "\tdcc_kinds (./kinds.bpf.c:30): byte_off dcc_kt.a: 0, 20 in kt.btf\n"
	       "\tdcc_kinds (./kinds.bpf.c:30): field_exists dcc_kt.small: 1, 0 in kt.btf\n"
	       "\tdcc_kinds (./kinds.bpf.c:33): byte_off dcc_kt.mode: 4, 16 in kt.btf\n"
	       "\tdcc_kinds (./kinds.bpf.c:33): byte_sz dcc_kt.mode: 4, 2 in kt.btf\n"
	       "\tdcc_kinds (./kinds.bpf.c:33): lshift_u64 dcc_kt.mode: 56, 56 in kt.btf\n"
	       "\tdcc_kinds (./kinds.bpf.c:33): signed dcc_kt.mode: 0, 0 in kt.btf\n"
	       "\tdcc_kinds (./kinds.bpf.c:33): rshift_u64 dcc_kt.mode: 59, 59 in kt.btf\n"
	       "\tdcc_kinds (./kinds.bpf.c:33): rshift_u64 dcc_kt.mode: 59, 59 in kt.btf\n"
	       "\tdcc_kinds (./kinds.bpf.c:33): byte_off dcc_kt.arr[2]: 32, 40 in kt.btf\n"
	       "\tdcc_kinds (./kinds.bpf.c:32): byte_sz dcc_kt.arr: 32, 64 in kt.btf\n"
	       "\tdcc_kinds (./kinds.bpf.c:36): type_exists struct dcc_kt: 1, 1 in kt.btf\n"
	       "\tdcc_kinds (./kinds.bpf.c:37): type_size typedef dcc_kt_t: 48, 96 in kt.btf\n"
	       "\tdcc_kinds (./kinds.bpf.c:38): target_type_id struct dcc_kt: 5, 6 in kt.btf\n"
	       "\tdcc_kinds (./kinds.bpf.c:39): enumval_exists enum dcc_ke::DCC_KE_B: 1, 1 in "
	       "kt.btf\n"
	       "\tdcc_kinds (./kinds.bpf.c:40): enumval_value enum dcc_ke::DCC_KE_B: 7, 42 in "
	       "kt.btf\n"
	       "\tdcc_direct (./kinds.bpf.c:60): byte_off dcc_kd.a: 0, 4 in kt.btf\n"
	       "\tdcc_direct (./kinds.bpf.c:60): byte_off dcc_kd.u: 4, 0 in kt.btf\n"
	       "\tdcc_direct (./kinds.bpf.c:60): byte_off dcc_kd.s: 8, 8 in kt.btf\n"
	       "kinds.bpf.o: 19 relocations resolve against kt.btf\n", "");
	/* a bit-field gone: the first of its five relocations is named */
	kinds_btf("nomode.btf", false, 0);
	expect("kinds.bpf.o --btf nomode.btf", 1,
	       "kinds.bpf.o: dcc_kinds (raw_tp/sys_enter, ./kinds.bpf.c:33): field dcc_kt.mode "
	       "(byte_off) does not exist in nomode.btf\n", "");
	/* loads libbpf could not rewrite */
	kinds_btf("short.btf", true, 1);
	expect("kinds.bpf.o --btf short.btf", 1,
	       "kinds.bpf.o: dcc_direct (raw_tp/sys_exit, ./kinds.bpf.c:60): field dcc_kd.s "
	       "(byte_off) is 2 bytes in short.btf, 4 in the object: only pointers and unsigned "
	       "integers can be loaded with another size\n", "");
	kinds_btf("far.btf", true, 2);
	expect("kinds.bpf.o --btf far.btf", 1,
	       "kinds.bpf.o: dcc_direct (raw_tp/sys_exit, ./kinds.bpf.c:60): field dcc_kd.a "
	       "(byte_off) is at offset 40000 in far.btf, past what a load instruction holds\n",
	       "");
	/* no dcc_kt at all: the first failure is a field; exists checks never fail */
	make_btf("other.btf", "task_struct", NULL, 0, 0);
	expect("kinds.bpf.o --btf other.btf", 1,
	       "kinds.bpf.o: dcc_kinds (raw_tp/sys_enter, ./kinds.bpf.c:26): field dcc_kt.next "
	       "(byte_off): struct dcc_kt does not exist in other.btf\n", "");
}
