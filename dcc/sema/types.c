/* The predefined D types and C's integer conversion rules over them. */
#include "types.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"

#define INT_T(var, sz, sgn, nm) struct type var = { .kind = T_INT, .size = sz, .is_signed = sgn, .name = nm }

struct type type_void = { .kind = T_VOID, .name = "void" };
struct type type_string = { .kind = T_STRING, .name = "string" };
INT_T(type_char, 1, true, "char");
INT_T(type_schar, 1, true, "signed char");
INT_T(type_uchar, 1, false, "unsigned char");
INT_T(type_short, 2, true, "short");
INT_T(type_ushort, 2, false, "unsigned short");
INT_T(type_int, 4, true, "int");
INT_T(type_uint, 4, false, "unsigned int");
INT_T(type_long, 8, true, "long");
INT_T(type_ulong, 8, false, "unsigned long");
INT_T(type_llong, 8, true, "long long");
INT_T(type_ullong, 8, false, "unsigned long long");
INT_T(type_int8, 1, true, "int8_t");
INT_T(type_uint8, 1, false, "uint8_t");
INT_T(type_int16, 2, true, "int16_t");
INT_T(type_uint16, 2, false, "uint16_t");
INT_T(type_int32, 4, true, "int32_t");
INT_T(type_uint32, 4, false, "uint32_t");
INT_T(type_int64, 8, true, "int64_t");
INT_T(type_uint64, 8, false, "uint64_t");
struct type type_float = { .kind = T_FLOAT, .size = 4, .is_signed = true, .name = "float" };
struct type type_double = { .kind = T_FLOAT, .size = 8, .is_signed = true, .name = "double" };
struct type type_ldouble = { .kind = T_FLOAT, .size = 16, .is_signed = true,
			     .name = "long double" };

static const struct {
	const char *name;
	struct type *t;
} names[] = {
	{ "void", &type_void }, { "string", &type_string },
	{ "char", &type_char }, { "signed char", &type_schar }, { "unsigned char", &type_uchar },
	{ "short", &type_short }, { "unsigned short", &type_ushort },
	{ "int", &type_int }, { "unsigned int", &type_uint }, { "unsigned", &type_uint },
	{ "long", &type_long }, { "unsigned long", &type_ulong },
	{ "long long", &type_llong }, { "unsigned long long", &type_ullong },
	{ "_Bool", &type_uchar },
	{ "int8_t", &type_int8 }, { "uint8_t", &type_uint8 },
	{ "int16_t", &type_int16 }, { "uint16_t", &type_uint16 },
	{ "int32_t", &type_int32 }, { "uint32_t", &type_uint32 },
	{ "int64_t", &type_int64 }, { "uint64_t", &type_uint64 },
	{ "size_t", &type_ulong }, { "ssize_t", &type_long },
	{ "uintptr_t", &type_ulong }, { "intptr_t", &type_long },
	{ "pid_t", &type_int }, { "id_t", &type_int }, { "uid_t", &type_uint },
	{ "gid_t", &type_uint }, { "processorid_t", &type_int },
	/* the short names DTrace defines for the unsigned types */
	{ "uchar_t", &type_uchar }, { "ushort_t", &type_ushort }, { "uint_t", &type_uint },
	{ "ulong_t", &type_ulong }, { "u_longlong_t", &type_ullong }, { "ptrdiff_t", &type_long },
	{ "float", &type_float }, { "double", &type_double }, { "long double", &type_ldouble },
};

enum { NNAMES = sizeof(names) / sizeof(names[0]) };
_Static_assert(NNAMES <= 256, "by_name holds row numbers in bytes");

/* names[]'s rows in the order of their names, made once: the parser and
 * sema ask about every identifier that may be a type */
static unsigned char by_name[NNAMES];
static pthread_once_t by_name_once = PTHREAD_ONCE_INIT;

static int cmp_rows(const void *a, const void *b)
{
	unsigned x = *(const unsigned char *)a, y = *(const unsigned char *)b;
	int c = strcmp(names[x].name, names[y].name);
	return c ? c : (int)x - (int)y;
}

static void sort_rows(void)
{
	for (unsigned i = 0; i < NNAMES; i++)
		by_name[i] = (unsigned char)i;
	qsort(by_name, NNAMES, sizeof(*by_name), cmp_rows);
}

struct type *type_by_name(const char *name)
{
	pthread_once(&by_name_once, sort_rows);
	/* the first row named name, as a walk from the start finds */
	unsigned lo = 0, hi = NNAMES;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		if (strcmp(names[by_name[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < NNAMES && !strcmp(names[by_name[lo]].name, name))
		return names[by_name[lo]].t;
	return NULL;
}

void types_forget_pointers(void)
{
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		names[i].t->ptr_to = NULL;
}

bool type_is_int(const struct type *t)
{
	return t && t->kind == T_INT;
}

bool type_is_float(const struct type *t)
{
	return t && t->kind == T_FLOAT;
}

struct type *type_float_of(unsigned size)
{
	return size == 4 ? &type_float : size == 8 ? &type_double : size == 16 ? &type_ldouble
									: NULL;
}

struct type *type_promote(struct type *t)
{
	return t->size < 4 ? &type_int : t;
}

/* D's usual arithmetic conversions (DTrace's dt_type_promote): the operand
 * of higher rank gives the type, a rank being the width in bits plus one
 * when unsigned; there is no promotion to int first, so unsigned char +
 * unsigned char is an unsigned char and wraps at 8 bits, and int << long
 * is a long. */
static unsigned rank(const struct type *t)
{
	return 8 * t->size + !t->is_signed;
}

struct type *type_arith(struct type *a, struct type *b)
{
	return rank(b) > rank(a) ? b : a;
}

const char *type_str(const struct type *t)
{
	return t ? t->name : "<none>";
}

struct type *type_ptr(struct arena *ar, struct type *to)
{
	if (to->ptr_to)
		return to->ptr_to;
	struct type *t = arena_new(ar, struct type);
	t->kind = T_PTR;
	t->size = 8;
	t->ref = to;
	t->name = arena_printf(ar, "%s *", to->name);
	to->ptr_to = t;
	return t;
}

struct type *type_array(struct arena *ar, struct type *elem, uint64_t n)
{
	struct type *t = arena_new(ar, struct type);
	t->kind = T_ARRAY;
	t->ref = elem;
	t->nelem = n;
	t->size = (unsigned)(elem->size * n);
	/* an array of arrays reads as C writes it: int [2][3] */
	const char *inner = elem->kind == T_ARRAY ? strstr(elem->name, " [") : NULL;
	if (inner)
		t->name = arena_printf(ar, "%.*s [%llu]%s", (int)(inner - elem->name), elem->name,
				       (unsigned long long)n, inner + 1);
	else
		t->name = arena_printf(ar, "%s [%llu]", elem->name, (unsigned long long)n);
	return t;
}

bool type_is_stringish(const struct type *t)
{
	return t && (t->kind == T_ARRAY || t->kind == T_PTR) && t->ref && t->ref->kind == T_INT &&
	       t->ref->size == 1;
}

bool type_is_scalar(const struct type *t)
{
	return t && (t->kind == T_INT || t->kind == T_PTR);
}

bool type_is_aggregate(const struct type *t)
{
	return t && (t->kind == T_STRUCT || t->kind == T_UNION || t->kind == T_ARRAY);
}

bool type_is_symbolic(const struct type *t)
{
	return t && (t->kind == T_STACK || t->kind == T_SYM);
}

unsigned type_stride(const struct type *p)
{
	return p->ref->kind == T_VOID ? 0 : p->ref->size;
}

const struct member *type_member_from(const struct type *t, const char *name, int *at)
{
	for (int k = 0; k < t->nmembers; k++) {
		int i = (*at + k) % t->nmembers;
		if (t->members[i].name && !strcmp(t->members[i].name, name)) {
			*at = i + 1;
			return &t->members[i];
		}
	}
	return NULL;
}
