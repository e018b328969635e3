/*
 * Kernel floating-point members through BTF, no kernel needed: BTF files
 * built here with libbpf hold a struct with float, double, long double and
 * typedef'd double members (BTF_KIND_FLOAT). The compiler's BTF reader gives
 * them D's float types by size; a script reading them compiles with --btf,
 * and `dcc verify` resolves its CO-RE relocations against the same struct
 * laid out otherwise, and refuses one whose member is no longer a float.
 */
#include <criterion/criterion.h>
#include <bpf/btf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arena.h"
#include "btf.h"
#include "helpers.h"

static char dir[64];

static void rm_dir(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", dir);
}

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/dcc_float_XXXXXX");
	cr_assert(mkdtemp(dir));
}

TestSuite(float_btf, .init = setup, .fini = rm_dir);

/* Byte offsets of struct fstruct's members in one layout; d_is_int makes d
 * an int instead of a double. */
struct layout {
	unsigned f, d, ld, r, h, size;
	bool d_is_int;
};

static const struct layout plain = { 0, 8, 16, 32, 40, 48, false };

/* Write DIR/FILE: struct fstruct { float f; double d; long double ld;
 * real_t r; _Float16 h; } laid out as l says, real_t a typedef of double. */
static void make_btf(const char *file, const struct layout *l)
{
	struct btf *b = btf__new_empty();
	int i32, f32, f64, f80, f16, real, sid;
	const void *raw;
	char path[256];
	uint32_t sz;

	cr_assert(b);
	i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	f32 = btf__add_float(b, "float", 4);
	f64 = btf__add_float(b, "double", 8);
	f80 = btf__add_float(b, "long double", 16);
	f16 = btf__add_float(b, "_Float16", 2);
	real = btf__add_typedef(b, "real_t", f64);
	sid = btf__add_struct(b, "fstruct", l->size);
	cr_assert(i32 > 0 && f32 > 0 && f64 > 0 && f80 > 0 && f16 > 0 && real > 0 && sid > 0);
	cr_assert_eq(btf__add_field(b, "f", f32, l->f * 8, 0), 0);
	cr_assert_eq(btf__add_field(b, "d", l->d_is_int ? i32 : f64, l->d * 8, 0), 0);
	cr_assert_eq(btf__add_field(b, "ld", f80, l->ld * 8, 0), 0);
	cr_assert_eq(btf__add_field(b, "r", real, l->r * 8, 0), 0);
	cr_assert_eq(btf__add_field(b, "h", f16, l->h * 8, 0), 0);
	raw = btf__raw_data(b, &sz);
	cr_assert(raw);
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	cr_assert_eq(write_file(path, raw, sz), 0);
	btf__free(b);
}

static void sh(struct run_result *r, const char *fmt, const char *arg)
{
	char cmd[1024], inner[768];

	snprintf(inner, sizeof(inner), fmt, arg);
	snprintf(cmd, sizeof(cmd), "cd %s && %s", dir, inner);
	run_sh(r, cmd, 60);
}

Test(float_btf, members_get_float_types_by_size)
{
	char path[256], why[256];
	struct arena *ar = arena_create();
	struct sema_btf *b;
	struct type *t;

	make_btf("f.btf", &plain);
	snprintf(path, sizeof(path), "%s/f.btf", dir);
	b = sema_btf_open(ar, path, why, sizeof(why));
	cr_assert(b, "%s", why);
	t = sema_btf_struct(b, "fstruct", false);
	cr_assert(t);
	cr_assert_eq(sema_btf_complete(b, t), 0);
	cr_assert_eq(t->nmembers, 5);
	cr_assert_eq(t->members[0].type, &type_float);
	cr_assert_eq(t->members[1].type, &type_double);
	cr_assert_eq(t->members[2].type, &type_ldouble);
	/* a typedef keeps its name and stays a double */
	cr_assert_eq(t->members[3].type->kind, T_FLOAT);
	cr_assert_eq(t->members[3].type->size, 8);
	cr_assert_str_eq(t->members[3].type->name, "real_t");
	cr_assert_eq(t->members[3].bit_off, 256);
	/* a float size D has no type for stays opaque */
	cr_assert_neq(t->members[4].type->kind, T_FLOAT);
	cr_assert_eq(t->members[4].type->size, 2);
	sema_btf_close(b);
	arena_destroy(ar);
}

/* the pointer is one the compiler can't know: BEGIN's arg0 is a constant 0,
 * with which every access below would be a certain fault, and gone */
static const char script[] =
	"BEGIN\n"
	"{\n"
	"\tthis->p = (struct fstruct *)timestamp;\n"
	"\tthis->d = this->p->r;\n"
	"\tprintf(\"%f %e %Lg %g\\n\", this->p->f, this->p->d, this->p->ld, this->d);\n"
	"\ttrace(this->p->ld);\n"
	"}\n";

Test(float_btf, kernel_float_members_compile_and_relocate)
{
	struct run_result r;
	char path[256];

	make_btf("f.btf", &plain);
	snprintf(path, sizeof(path), "%s/k.d", dir);
	cr_assert_eq(write_file(path, script, strlen(script)), 0);
	sh(&r, "%s --btf f.btf k.d -o k.bpf.o", DCC_BIN);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_str_empty(r.err);
	run_result_free(&r);

	/* the same members elsewhere: every access relocates */
	const struct layout moved = { 40, 32, 0, 16, 24, 48, false };
	make_btf("moved.btf", &moved);
	sh(&r, "%s verify -v k.bpf.o --btf moved.btf", DCC_BIN);
	cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
	cr_assert(strstr(r.out, "byte_off fstruct.d: 8, 32 in moved.btf\n"), "%s", r.out);
	cr_assert(strstr(r.out, "byte_off fstruct.ld: 16, 0 in moved.btf\n"), "%s", r.out);
	cr_assert(strstr(r.out, "byte_off fstruct.r: 32, 16 in moved.btf\n"), "%s", r.out);
	cr_assert(strstr(r.out, "byte_off fstruct.f: 0, 40 in moved.btf\n"), "%s", r.out);
	cr_assert(strstr(r.out, "k.bpf.o: 4 relocations resolve against moved.btf\n"), "%s",
		  r.out);
	run_result_free(&r);

	/* d an int in the target: the object reads a float there */
	struct layout d_int = plain;
	d_int.d_is_int = true;
	make_btf("dint.btf", &d_int);
	sh(&r, "%s verify k.bpf.o --btf dint.btf", DCC_BIN);
	cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
	cr_assert(strstr(r.out, "field fstruct.d (byte_off) is an integer in dint.btf, a float "
			 "in the object\n"), "%s", r.out);
	run_result_free(&r);
}

Test(float_btf, opaque_float_is_not_printable)
{
	static const char bad[] = "BEGIN { printf(\"%f\\n\", ((struct fstruct *)arg0)->h); }\n";
	struct run_result r;
	char path[256];

	make_btf("f.btf", &plain);
	snprintf(path, sizeof(path), "%s/h.d", dir);
	cr_assert_eq(write_file(path, bad, strlen(bad)), 0);
	sh(&r, "%s --btf f.btf -e h.d", DCC_BIN);
	cr_assert_eq(r.status, 1);
	cr_assert(strstr(r.err, "h.d:1:25: error: conversion '%f' needs a floating-point argument, "
			 "argument #1 is '_Float16'\n"), "%s", r.err);
	run_result_free(&r);
}
