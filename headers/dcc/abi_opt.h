/*
 * D's options (D-LANGUAGE.md §15), one table for both sides: each name's
 * value type, whether it shapes the object (fixed when it is compiled) or is
 * read when it runs, its default, and the parsers of its values. Sema checks
 * -x and pragmas with it, codegen reads sizes with it, the loader checks
 * -x and reads bufsize and the rates, the runtime tells compiled options from
 * run-time ones. A value is refused whole: "4q", "4mm", "" and "-1" are no
 * sizes anywhere.
 */
#ifndef DCC_ABI_OPT_H
#define DCC_ABI_OPT_H

#include <stdbool.h>
#include <stdint.h>

enum abi_opt_type {
	ABI_OPT_BOOL,   /* no value ("quiet"), or DTrace's yes/no words: "quiet=off" */
	ABI_OPT_SIZE,   /* bytes, with an optional k m g t suffix: "4m", "64k", "512" */
	ABI_OPT_RATE,   /* a period: ns, us, ms, s, m, h, d (and long forms) or hz: "10hz" */
	ABI_OPT_COUNT,  /* a number, C syntax, no sign: "8", "0x10" */
	ABI_OPT_INT,    /* a signed number, C syntax: "-1" */
	ABI_OPT_STRING, /* any text */
	ABI_OPT_ENUM,   /* one of `values` */
};

#define ABI_OPT_COMPILE 1 /* shapes the object: fixed when the script is compiled */

struct abi_opt {
	const char *name;
	enum abi_opt_type type;
	unsigned flags;      /* ABI_OPT_* */
	const char *def;     /* the value when unset, NULL if none */
	const char *values;  /* ABI_OPT_ENUM: "json|text" */
	const char *refused; /* why dcc refuses the option whatever its value, or NULL */
};

/* The option called name, or NULL: no such option. */
const struct abi_opt *abi_opt_find(const char *name);
/* The table itself, for listing; *n gets its length. */
const struct abi_opt *abi_opt_table(unsigned *n);

/* 0 if value (NULL: none given) suits o's type, else -EINVAL. */
int abi_opt_check(const struct abi_opt *o, const char *value);

/* The parsers; each returns 0 or -EINVAL (no value, a bad or unknown
 * suffix, a sign, trailing text, overflow). */
int abi_opt_parse_size(const char *s, uint64_t *bytes);
int abi_opt_parse_rate(const char *s, uint64_t *ns);
int abi_opt_parse_int(const char *s, int64_t *v);
int abi_opt_parse_count(const char *s, uint64_t *v);
/* A boolean's value: none or "" (the metadata's form of none) is on, then
 * DTrace's words, any case: yes/no, true/false, on/off, set/unset,
 * enable/disable, enabled/disabled. Numbers are refused, as dtrun always did. */
int abi_opt_parse_bool(const char *s, bool *on);

#endif
