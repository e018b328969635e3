/*
 * D's types as sema and codegen see them. Integer types are canonical
 * singletons (compare pointers); strings carry no length: every string value
 * is strsize bytes, NUL-padded. Floating-point types (float, double, long
 * double: x86-64's 80-bit extended in 16 bytes) are values D can move and
 * print but not compute with; two are the same type when their sizes are.
 */
#ifndef DCC_TYPES_H
#define DCC_TYPES_H

#include <stdbool.h>
#include <stdint.h>

/* T_STACK: stack() / ustack() values; T_SYM: sym(), mod(), usym()...: the
 * runtime symbolizes both (dkind says how, as a DCC_K_* of abi.h) */
enum type_kind {
	T_VOID = 1, T_INT, T_STRING, T_PTR, T_ARRAY, T_STRUCT, T_UNION, T_FUNC, T_STACK, T_SYM,
	T_FLOAT,
};

struct member {
	const char *name;  /* NULL for an anonymous struct/union member */
	struct type *type;
	uint64_t bit_off;
	uint32_t bit_size; /* non-zero for a bit-field */
};

struct type {
	enum type_kind kind;
	unsigned size;     /* bytes; strings: 0 (strsize decides) */
	bool is_signed;
	const char *name;  /* "int", "unsigned long", "string", "uint64_t",
			      "struct task_struct", "char [16]" ... */
	struct type *ref;  /* T_PTR: pointee; T_ARRAY: element */
	uint64_t nelem;    /* T_ARRAY */
	const char *tag;   /* T_STRUCT/T_UNION: "task_struct"; NULL if anonymous */
	struct member *members;
	int nmembers;
	bool complete;     /* struct/union: members known */
	int btf_id;        /* kernel type id (struct/union): accesses are CO-RE */
	const char *enum_tag; /* an integer that is a kernel enum ("" if anonymous) */
	const char **enum_names; /* its enumerators, for print() */
	int64_t *enum_vals;
	int nenums;
	int dkind;         /* T_STACK, T_SYM: enum dcc_kind */
	struct type *ptr_to; /* the pointer type to this, made once */
};

extern struct type type_void, type_string;
extern struct type type_char, type_schar, type_uchar, type_short, type_ushort;
extern struct type type_int, type_uint, type_long, type_ulong, type_llong, type_ullong;
extern struct type type_int8, type_uint8, type_int16, type_uint16, type_int32, type_uint32,
	type_int64, type_uint64;
extern struct type type_float, type_double, type_ldouble;

/* A base or predefined type name ("unsigned long", "uint32_t", "size_t",
 * "pid_t", "string"...); NULL if unknown. */
struct type *type_by_name(const char *name);
bool type_is_int(const struct type *t);
bool type_is_float(const struct type *t);
/* The float type of a size (4, 8, 16), NULL for any other. */
struct type *type_float_of(unsigned size);
/* D's usual arithmetic conversions: the operand of higher rank (width,
 * then unsignedness) gives the type, with no promotion to int first. */
struct type *type_arith(struct type *a, struct type *b);
/* Integer promotion: anything narrower than int becomes int. */
struct type *type_promote(struct type *t);
const char *type_str(const struct type *t);

struct arena;
/* The pointer type to `to`, made once in ar and cached in `to`. */
struct type *type_ptr(struct arena *ar, struct type *to);
/* Drop the pointer types cached in the predefined types: they live in a
 * compile's arena, and another compile in the same process (the fuzzer's)
 * must not find them once that arena is gone. */
void types_forget_pointers(void);
struct type *type_array(struct arena *ar, struct type *elem, uint64_t n);
/* char arrays and char pointers, which D turns into strings where a string
 * is wanted */
bool type_is_stringish(const struct type *t);
bool type_is_scalar(const struct type *t); /* integers and pointers */
/* The bytes pointer arithmetic on p steps by: its referenced type's size; 0
 * when it has none, void * included (DTrace refuses arithmetic on void *,
 * unlike GNU C). */
unsigned type_stride(const struct type *p);
bool type_is_aggregate(const struct type *t);
/* Values the runtime symbolizes: stacks and addresses (T_STACK, T_SYM). */
bool type_is_symbolic(const struct type *t);
/* t's member named name (not in an anonymous member), looked for from
 * index *at on, wrapping, and *at left after it: names asked in about the
 * struct's order cost a pass, not a square. NULL if there is none. */
const struct member *type_member_from(const struct type *t, const char *name, int *at);

#endif
