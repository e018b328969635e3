/*
 * printf-format conversion specs, tokenized once for both sides: sema
 * checks each spec against its argument, the runtime renders it. A spec is
 * '%', flags (- + space # 0 ' and printa's @), a width (digits, '*' or '?'),
 * a precision ('.' then digits or '*'), a length modifier (DTrace's h hh l
 * ll z t j L; a run of those letters is taken whole, the value's own size
 * decides), and the conversion character, whose class says what it prints.
 */
#ifndef DCC_ABI_FMT_H
#define DCC_ABI_FMT_H

#include <stdbool.h>
#include <stddef.h>

enum abi_fmt_class {
	ABI_FMT_BAD = 0, /* not a conversion D knows */
	ABI_FMT_PERCENT, /* %% */
	ABI_FMT_INT,     /* d i o u x X c p */
	ABI_FMT_FLOAT,   /* e E f g G */
	ABI_FMT_STRING,  /* s S */
	ABI_FMT_TIME,    /* Y T: a walltime in ns */
	ABI_FMT_CHAR,    /* C: a character, escaped */
	ABI_FMT_KADDR,   /* a: kernel address as module`symbol+off */
	ABI_FMT_UADDR,   /* A: user address */
	ABI_FMT_STACK,   /* k: a stack() or ustack() */
};

#define ABI_FMT_STAR (-2)        /* width or precision: '*', from an argument */
#define ABI_FMT_MAX_WIDTH 65535  /* larger widths and precisions are cut to it */

struct abi_fmt_spec {
	size_t len;         /* bytes from the '%' through the conversion character */
	char flags[8];      /* each of "-+ #0'" once, in the order written */
	int width, prec;    /* -1: none; ABI_FMT_STAR; '?' is width 16 */
	bool agg;           /* '@': the aggregation's value in printa() */
	char length[4];     /* "", "h", "hh", "l", "ll", "z", "t", "j", "L"... */
	char conv;          /* 0: the format ends inside the spec */
	enum abi_fmt_class cls;
};

/* The spec at f[0] == '%' of the n bytes at f (a NUL also ends them). */
void abi_fmt_scan(const char *f, size_t n, struct abi_fmt_spec *sp);

#endif
