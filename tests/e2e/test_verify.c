/*
 * `dcc verify OBJ` on this kernel: relocations checked against
 * /sys/kernel/btf/vmlinux and every program loaded into the verifier, never
 * attached, nothing left loaded. Refused programs are made by patching one
 * helper call of a compiled object into an unknown helper; an object
 * compiled against a BTF with a field this kernel lacks is refused too.
 */
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <dirent.h>

#include "e2e.h"

#define VMLINUX "/sys/kernel/btf/vmlinux"

/* Copy tests/data/verify/NAME.d into the scratch folder, compile it there
 * (with extra dcc arguments) so messages name it "NAME.d". */
static void compile_in(const char *name, const char *extra)
{
	char path[512], cmd[1024];
	struct run_result r;
	size_t len;
	char *src;

	snprintf(path, sizeof(path), "%s/data/verify/%s.d", TESTS_SRC_DIR, name);
	src = read_file(path, &len);
	cr_assert(src, "missing %s", path);
	cr_assert_eq(write_file(e2e_tmp(name), src, len), 0);
	free(src);
	snprintf(path, sizeof(path), "%s.d", name);
	rename(e2e_tmp(name), e2e_tmp(path));
	snprintf(cmd, sizeof(cmd), "cd %s && %s %s %s.d -o %s.bpf.o", e2e_dir, DCC_BIN, extra, name,
		 name);
	run_sh(&r, cmd, E2E_TIMEOUT);
	cr_assert_eq(r.status, 0, "compiling %s.d: %s", name, r.err);
	run_result_free(&r);
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static void verify(struct run_result *r, const char *args)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "cd %s && %s verify %s", e2e_dir, DCC_BIN, args);
	run_sh(r, cmd, E2E_TIMEOUT);
}

/* Replace the last (or first) bpf_get_current_task() call of obj with a call
 * of helper 32767, which no kernel has, and write it to out. */
static void patch_call(const char *obj, const char *out, bool last)
{
	static const unsigned char call[8] = { 0x85, 0, 0, 0, 0x23, 0, 0, 0 };
	size_t len, at = (size_t)-1;
	char *d = read_file(e2e_tmp(obj), &len);

	cr_assert(d);
	for (size_t i = 0; i + 8 <= len; i += 8)
		if (!memcmp(d + i, call, 8) && (last || at == (size_t)-1))
			at = i;
	cr_assert_neq(at, (size_t)-1, "no call of bpf_get_current_task in %s", obj);
	d[at + 4] = (char)0xff;
	d[at + 5] = 0x7f;
	cr_assert_eq(write_file(e2e_tmp(out), d, len), 0);
	free(d);
}

E2E_TEST(verify, good_object_passes)
{
	struct run_result r;

	compile_in("ppid", "");
	verify(&r, "ppid.bpf.o");
	e2e_expect_out(&r, 0, "verify.good_object_passes");
	cr_assert_str_empty(r.err);
	run_result_free(&r);
}

E2E_TEST(verify, every_program_of_an_object)
{
	struct run_result r;

	compile_in("two", "");
	verify(&r, "two.bpf.o");
	e2e_expect_out(&r, 0, "verify.every_program_of_an_object");
	run_result_free(&r);
}

E2E_TEST(verify, samples_pass)
{
	char path[512], obj[512], want[1100];
	struct dirent *e;
	int n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/../samples", TESTS_SRC_DIR);
	d = opendir(path);
	cr_assert(d, "no %s", path);
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		struct run_result r;
		int progs = 0;

		if (len < 3 || strcmp(e->d_name + len - 2, ".d"))
			continue;
		snprintf(path, sizeof(path), "%s/../samples/%s", TESTS_SRC_DIR, e->d_name);
		snprintf(obj, sizeof(obj), "%s/%.*s.bpf.o", e2e_dir, (int)len - 2, e->d_name);
		e2e_compile(path, obj);
		e2e_run(&r, "/usr/bin/readelf", "-W", "-s", obj, NULL);
		/* programs are the global functions; the local ones are the
		 * clauses a timer program calls (cg_timer.c) */
		for (const char *p = r.out; (p = strstr(p, " FUNC ")); p++)
			if (!strncmp(p + 6 + strspn(p + 6, " "), "GLOBAL ", 7))
				progs++;
		run_result_free(&r);
		e2e_run(&r, DCC_BIN, "verify", obj, NULL);
		snprintf(want, sizeof(want), "%s: %d program%s the verifier\n", obj, progs,
			 progs == 1 ? " passes" : "s pass");
		cr_assert_eq(r.status, 0, "%s: %s%s", e->d_name, r.out, r.err);
		cr_assert(strstr(r.out, want), "%s: want %s, got:\n%s", e->d_name, want, r.out);
		run_result_free(&r);
		n++;
	}
	closedir(d);
	cr_assert_geq(n, 5, "only %d samples", n);
}

E2E_TEST(verify, refused_program_with_d_line)
{
	struct run_result r;

	compile_in("ppid", "");
	patch_call("ppid.bpf.o", "bad.bpf.o", false);
	verify(&r, "bad.bpf.o");
	cr_assert_eq(r.status, 1, "status %d\n%s%s", r.status, r.out, r.err);
	cr_assert(starts(r.out, "bad.bpf.o: 2 relocations resolve against " VMLINUX "\n"
			   "ppid.d:3: error: program dcc_c1 "
			   "(tracepoint/syscalls/sys_enter_getppid) refused by the verifier "
			   "(Invalid argument):\n\t"),
		  "got:\n%s", r.out);
	cr_assert(strstr(r.out, ": (85) call unknown#32767\n\tinvalid func unknown#32767\n"
			 "bad.bpf.o: 0 of 1 programs pass the verifier\n"), "got:\n%s", r.out);
	cr_assert_eq(e2e_lines(r.out), 6, "got:\n%s", r.out);
	cr_assert_str_empty(r.err);
	run_result_free(&r);
}

E2E_TEST(verify, others_load_without_the_refused_one)
{
	struct run_result r;

	compile_in("two", "");
	patch_call("two.bpf.o", "bad.bpf.o", true);
	verify(&r, "bad.bpf.o");
	cr_assert_eq(r.status, 1, "status %d\n%s%s", r.status, r.out, r.err);
	cr_assert(strstr(r.out, "\ntwo.d:14: error: program dcc_c3 "
			 "(tracepoint/syscalls/sys_enter_getpid) refused by the verifier "
			 "(Invalid argument):\n"), "got:\n%s", r.out);
	cr_assert(strstr(r.out, "\tinvalid func unknown#32767\n"
			 "bad.bpf.o: 2 of 3 programs pass the verifier\n"), "got:\n%s", r.out);
	run_result_free(&r);
}

E2E_TEST(verify, code_under_target_is_verified)
{
	/* with $target 0 the verifier would skip the clause as dead code */
	struct run_result r;

	compile_in("target", "");
	patch_call("target.bpf.o", "bad.bpf.o", false);
	verify(&r, "bad.bpf.o");
	cr_assert_eq(r.status, 1, "status %d\n%s%s", r.status, r.out, r.err);
	cr_assert(strstr(r.out, "\ntarget.d:4: error: program dcc_c1 "
			 "(tracepoint/syscalls/sys_enter_getppid) refused by the verifier "
			 "(Invalid argument):\n"), "got:\n%s", r.out);
	cr_assert(strstr(r.out, "\tinvalid func unknown#32767\n"
			 "bad.bpf.o: 0 of 1 programs pass the verifier\n"), "got:\n%s", r.out);
	run_result_free(&r);
}

E2E_TEST(verify, code_under_no_target_is_verified)
{
	/* and with $target set it would skip this one: a second pass */
	struct run_result r;

	compile_in("target0", "");
	patch_call("target0.bpf.o", "bad.bpf.o", false);
	verify(&r, "bad.bpf.o");
	cr_assert_eq(r.status, 1, "status %d\n%s%s", r.status, r.out, r.err);
	cr_assert(starts(r.out, "bad.bpf.o: 2 relocations resolve against " VMLINUX "\n"
			 "target0.d:4: error: program dcc_c1 "
			 "(tracepoint/syscalls/sys_enter_getppid) refused by the verifier with "
			 "$target 0 (Invalid argument):\n"), "got:\n%s", r.out);
	cr_assert(strstr(r.out, "\tinvalid func unknown#32767\n"
			 "bad.bpf.o: 0 of 1 programs pass the verifier with $target 0\n"),
		  "got:\n%s", r.out);
	run_result_free(&r);
}

/* A BTF whose task_struct has a field no kernel has. */
static void lacking_btf(const char *file)
{
	struct btf *b = btf__new_empty();
	int i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	int chr = btf__add_int(b, "char", 1, BTF_INT_SIGNED);
	int comm = btf__add_array(b, i32, chr, 16);
	int ptr = btf__add_ptr(b, comm + 2);
	const void *raw;
	__u32 sz;

	cr_assert_eq(btf__add_struct(b, "task_struct", 40), comm + 2);
	btf__add_field(b, "pid", i32, 0, 0);
	btf__add_field(b, "tgid", i32, 32, 0);
	btf__add_field(b, "real_parent", ptr, 64, 0);
	btf__add_field(b, "dcc_only_here", i32, 128, 0);
	btf__add_field(b, "comm", comm, 160, 0);
	raw = btf__raw_data(b, &sz);
	cr_assert_eq(write_file(e2e_tmp(file), raw, sz), 0);
	btf__free(b);
}

E2E_TEST(verify, field_this_kernel_lacks)
{
	struct run_result r;

	lacking_btf("lacks.btf");
	compile_in("lacks", "--btf lacks.btf");
	verify(&r, "lacks.bpf.o --btf lacks.btf");
	e2e_expect_out(&r, 0, "verify.field_this_kernel_lacks");
	run_result_free(&r);
	verify(&r, "lacks.bpf.o");
	cr_assert_eq(r.status, 1, "status %d\n%s%s", r.status, r.out, r.err);
	cr_assert(starts(r.out, "lacks.bpf.o: dcc_c1 (tracepoint/syscalls/sys_enter_getppid, "
			   "lacks.d:3): field task_struct.dcc_only_here (byte_off) does not exist "
			   "in " VMLINUX "\nlacks.d:3: error: program dcc_c1 "
			   "(tracepoint/syscalls/sys_enter_getppid) refused by the verifier "
			   "(Invalid argument):\n"), "got:\n%s", r.out);
	cr_assert(strstr(r.out, "<invalid CO-RE relocation>\n\tfailed to resolve CO-RE "
			 "relocation <byte_off> "), "got:\n%s", r.out);
	cr_assert(strstr(r.out, "struct task_struct.dcc_only_here (0:3 @ offset 16)\n"
			 "lacks.bpf.o: 0 of 1 programs pass the verifier\n"), "got:\n%s", r.out);
	run_result_free(&r);
}

/* libbpf's own verdict, read from its debug messages while it relocates an
 * object against a custom BTF: "patched insn #32 (ALU/ALU64) imm 8 -> 40",
 * "(LDX/ST/STX) off 4 -> 16", "(LDIMM64) imm64 5 -> 6": the new values. */
static char patched[4096], resized[256];

static int catch_patched(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char line[1024];
	const char *p;
	unsigned long long from, to;
	size_t n = strlen(patched);

	(void)level;
	vsnprintf(line, sizeof(line), fmt, ap);
	p = strstr(line, "patched insn #");
	if (p && (p = strstr(p, ") ")) && sscanf(p, ") mem_sz %llu -> %llu", &from, &to) == 2)
		snprintf(resized + strlen(resized), sizeof(resized) - strlen(resized),
			 "%llu -> %llu\n", from, to);
	else if (p && sscanf(p, ") %*s %llu -> %llu", &from, &to) == 2)
		snprintf(patched + n, sizeof(patched) - n, "%llu\n", to);
	return 0;
}

/* The target values `dcc verify -v obj --btf btf` prints, one a line, must be
 * what libbpf patches into the instructions with the same BTF; want is that
 * list. Loads the object (never attached) to make libbpf relocate it. */
static void agree_with_libbpf(const char *obj, const char *btf, const char *want)
{
	struct run_result r;
	char args[512], ours[4096] = "";
	struct bpf_object *o;
	libbpf_print_fn_t old;

	snprintf(args, sizeof(args), "-v %s --btf %s", obj, btf);
	verify(&r, args);
	cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
	for (const char *p = r.out; (p = strstr(p, ", ")); p++) {
		const char *v = p + 2;

		cr_assert(strstr(v, " in "));
		strncat(ours, v, (size_t)(strstr(v, " in ") - v));
		strcat(ours, "\n");
	}
	cr_assert_str_eq(ours, want, "dcc verify -v printed:\n%s", r.out);
	run_result_free(&r);

	LIBBPF_OPTS(bpf_object_open_opts, oo, .btf_custom_path = e2e_tmp(btf));
	old = libbpf_set_print(catch_patched);
	o = bpf_object__open_file(e2e_tmp(obj), &oo);
	cr_assert(o);
	patched[0] = resized[0] = 0;
	cr_assert_eq(bpf_object__load(o), 0);
	bpf_object__close(o);
	libbpf_set_print(old);
	cr_assert_str_eq(patched, ours, "libbpf patched:\n%s", patched);
}

E2E_TEST(verify, offsets_agree_with_libbpf)
{
	/* real_parent in an anonymous union, tgid first, another struct name flavor */
	struct btf *b = btf__new_empty();
	int i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	int ptr = btf__add_ptr(b, i32 + 3);
	int un = btf__add_union(b, NULL, 8);
	const void *raw;
	__u32 sz;

	btf__add_field(b, "parent", ptr, 0, 0);
	btf__add_field(b, "real_parent", ptr, 0, 0);
	cr_assert_eq(btf__add_struct(b, "task_struct___x", 64), i32 + 3);
	btf__add_field(b, "tgid", i32, 0, 0);
	btf__add_field(b, "pid", i32, 32, 0);
	btf__add_field(b, NULL, un, 448, 0);
	raw = btf__raw_data(b, &sz);
	cr_assert_eq(write_file(e2e_tmp("x.btf"), raw, sz), 0);
	btf__free(b);
	compile_in("ppid", "");
	agree_with_libbpf("ppid.bpf.o", "x.btf", "56\n0\n");
}

E2E_TEST(verify, every_kind_agrees_with_libbpf)
{
	/* as tests/compile/test_verify.c's kinds_btf() */
	struct btf *b = btf__new_empty();
	int i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	int u16 = btf__add_int(b, "unsigned short", 2, 0);
	int i64 = btf__add_int(b, "long", 8, BTF_INT_SIGNED);
	int arr = btf__add_array(b, i32, i64, 8);
	int ptr = btf__add_ptr(b, arr + 2);
	struct run_result r;
	char cmd[1024];
	const void *raw;
	__u32 sz;

	cr_assert_eq(btf__add_struct(b, "dcc_kt___v2", 96), arr + 2);
	btf__add_field(b, "pad", i64, 0, 0);
	btf__add_field(b, "next", ptr, 64, 0);
	btf__add_field(b, "flags", u16, 128, 3);
	btf__add_field(b, "mode", u16, 131, 5);
	btf__add_field(b, "a", i32, 160, 0);
	btf__add_field(b, "arr", arr, 192, 0);
	btf__add_typedef(b, "dcc_kt_t", arr + 2);
	btf__add_enum(b, "dcc_ke", 4);
	btf__add_enum_value(b, "DCC_KE_B", 42);
	btf__add_enum_value(b, "DCC_KE_A", 2);
	u16 = btf__add_int(b, "unsigned short", 2, 0);
	btf__add_struct(b, "dcc_kd", 12);
	btf__add_field(b, "u", u16, 0, 0);
	btf__add_field(b, "a", i32, 32, 0);
	btf__add_field(b, "s", i32, 64, 0);
	raw = btf__raw_data(b, &sz);
	cr_assert_eq(write_file(e2e_tmp("kt.btf"), raw, sz), 0);
	btf__free(b);
	snprintf(cmd, sizeof(cmd), "cd %s && clang-19 -target bpf -O2 -g "
		 "-I/usr/include/$(gcc -print-multiarch) -c %s/data/verify/kinds.bpf.c "
		 "-o kinds.bpf.o", e2e_dir, TESTS_SRC_DIR);
	run_sh(&r, cmd, E2E_TIMEOUT);
	cr_assert_eq(r.status, 0, "clang-19: %s", r.err);
	run_result_free(&r);
	agree_with_libbpf("kinds.bpf.o", "kt.btf",
			  "8\n20\n0\n16\n2\n56\n0\n59\n59\n40\n64\n1\n96\n6\n1\n42\n"
			  "4\n0\n8\n");
	/* and u's load was resized from 4 bytes to 2 */
	cr_assert_str_eq(resized, "4 -> 2\n");
}
