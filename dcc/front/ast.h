/*
 * The syntax tree the parser builds and sema annotates. One node struct for
 * every kind; the comment on each kind says which fields it uses. Lists are
 * chained through `next` and hang from `list` (or from a/b when noted).
 * Sema fills `type`, `sym`, `id` and `bi`; codegen keeps its own tables.
 */
#ifndef DCC_AST_H
#define DCC_AST_H

#include <stdbool.h>
#include <stdint.h>
#include "diag.h"

struct type;    /* sema's, see types.h */
struct builtin; /* sema's registry row, see builtin.h */

enum node_kind {
	/* top level */
	N_PROGRAM = 1, /* list: clauses, decls, pragmas in source order */
	N_CLAUSE,      /* list: N_PROBEDESC...; a: predicate or NULL; b: statements
	                  (chain of expression nodes); ival: 1 if the clause had no
	                  body ("-n 'syscall::read:entry'", default action) */
	N_PROBEDESC,   /* str: text as written; prov/mod/func/pname: the four fields
	                  after right-filling (absent = ""); ival: probe id if the
	                  description was a number, else 0 */
	N_PRAGMA,      /* name: "option", "depends_on", "binding", "version",
	                  "attributes", "error", "line"; str: rest of the line,
	                  trimmed; for "option": a = N_OPTION */
	N_OPTION,      /* name: option name; str: value or NULL when none given */

	/* declarations (parsed; which ones compile is sema's business) */
	N_DECL,        /* a: N_TSPEC; list: N_DECLARATOR... (may be empty, e.g.
	                  "struct s { int a; };"); ival: storage class (enum storage) */
	N_TSPEC,       /* ival: enum tspec_kind; name: "int", "unsigned long",
	                  "string", a typedef name, or the struct/union/enum tag
	                  (NULL if anonymous); str: module scope from
	                  "vmlinux`struct task_struct" or NULL; list: members
	                  (N_DECL) or enumerators (N_ENUMERATOR) when a body was
	                  written, with iflags & TSF_BODY set; iflags: TSF_* */
	N_DECLARATOR,  /* name (NULL in an abstract declarator); ival: pointer
	                  depth; list: array dimensions outermost first (an
	                  expression each, or N_EMPTY for "[]"); a: bit-field width;
	                  b: initializer; c: parameter list (N_TYPENAME chain) for a
	                  function declarator (provider probes, extern
	                  functions), with iflags DF_FUNC set, or for a function
	                  pointer "(*name)(...)", with DF_FUNCPTR */
	N_ENUMERATOR,  /* name; a: value expression or NULL */
	N_TYPENAME,    /* a type written in a cast, sizeof, xlate, offsetof,
	                  inline, translator: a: N_TSPEC; b: N_DECLARATOR (abstract,
	                  may be NULL) */
	N_INLINE,      /* name; a: N_TYPENAME; b: value expression; c: named N_TYPENAME params */
	N_TRANSLATOR,  /* a: output N_TYPENAME; b: input N_TYPENAME; name: input
	                  identifier; list: N_XMEMBER... */
	N_XMEMBER,     /* name: output member; a: expression */
	N_PROVIDER,    /* name; list: N_DECLARATOR chain (function declarators,
	                  c = arguments; d = translated arguments after ':' or NULL) */

	/* expressions */
	N_INT,      /* ival: value; iflags: INTF_* (suffixes, char literal) */
	N_STR,      /* str, slen: bytes after escape processing (str is also
	               NUL-terminated) */
	N_IDENT,    /* name: builtin, global variable, enum constant, inline;
	               op '`' for a kernel symbol (`jiffies, vmlinux`jiffies),
	               str then its module or NULL */
	N_MACRO,    /* name: "1".."9", "target", "pid", ...; ival: 1 for $$N */
	N_SELF,     /* name: member of self-> */
	N_THIS,     /* name: member of this-> */
	N_AGG,      /* name: "" for @, "foo" for @foo; list: key expressions
	               (from @foo[k1, k2]) */
	N_UNOP,     /* op: '-', '+', '!', '~', '*' (deref), '&' (address),
	               OP_PREINC, OP_PREDEC, OP_POSTINC, OP_POSTDEC; a: operand */
	N_BINOP,    /* op: '+' '-' '*' '/' '%' '&' '|' '^' '<' '>' OP_SHL OP_SHR
	               OP_LE OP_GE OP_EQ OP_NE OP_LAND OP_LOR OP_LXOR; a, b */
	N_ASSIGN,   /* op: '=' or the compound operator's binary op ('+' for +=,
	               OP_SHL for <<=, ...); a: lvalue; b: value */
	N_COND,     /* a ? b : c */
	N_COMMA,    /* a, b */
	N_CALL,     /* name: function or action; list: arguments; a: the
	               callee expression when it is not a plain identifier */
	N_INDEX,    /* a: array or associative array (usually N_IDENT); list:
	               index expressions (a tuple for associative arrays) */
	N_MEMBER,   /* a: base; name: member; op: '.' or OP_ARROW */
	N_CAST,     /* a: N_TYPENAME; b: operand */
	N_SIZEOF,   /* a: N_TYPENAME or expression; ival: 1 if a is a type */
	N_STRINGOF, /* a: operand */
	N_OFFSETOF, /* a: N_TYPENAME; name: member */
	N_XLATE,    /* a: N_TYPENAME; b: operand */
	N_EMPTY,    /* placeholder, e.g. "[]" */
};

/* Operators beyond single characters (single-character ones use the char). */
enum {
	OP_SHL = 256, OP_SHR, OP_LE, OP_GE, OP_EQ, OP_NE, OP_LAND, OP_LOR, OP_LXOR,
	OP_ARROW, OP_PREINC, OP_PREDEC, OP_POSTINC, OP_POSTDEC,
};

enum tspec_kind {
	TS_BASE = 1,  /* name holds the canonical C/D base type: "char",
	                 "signed char", "unsigned char", "short", "unsigned short",
	                 "int", "unsigned int", "long", "unsigned long",
	                 "long long", "unsigned long long", "float", "double",
	                 "long double", "void", "_Bool", "string" */
	TS_TYPEDEF,   /* name: a typedef name (int32_t, size_t, a user typedef...) */
	TS_STRUCT,
	TS_UNION,
	TS_ENUM,
};

enum { TSF_CONST = 1, TSF_VOLATILE = 2, TSF_BODY = 4, TSF_SIGNED = 8, TSF_UNSIGNED = 16 };
/* DF_FUNCPTR: "(*name)(params)", a pointer to a function (its return type is
 * the base type's; D only sizes and stores such pointers) */
enum { DF_FUNC = 1, DF_FUNCPTR = 2, DF_VARARGS = 4 };
enum { INTF_UNSIGNED = 1, INTF_LONG = 2, INTF_LONGLONG = 4, INTF_CHAR = 8 };

enum storage {
	ST_NONE = 0, ST_TYPEDEF, ST_EXTERN, ST_STATIC, ST_REGISTER, ST_AUTO, ST_SELF, ST_THIS,
};

struct node {
	enum node_kind kind;
	struct loc loc;      /* the whole construct; for operators, loc covers the
	                        expression and op_loc the operator itself */
	struct loc op_loc;
	int op;
	struct node *a, *b, *c, *d;
	struct node *list;
	struct node *next;
	const char *name;
	const char *str;
	size_t slen;
	const char *prov, *mod, *func, *pname; /* N_PROBEDESC */
	uint64_t ival;
	unsigned iflags;

	/* filled by sema */
	struct type *type;
	void *sym;
	int id;
	const struct builtin *bi; /* a builtin's call or variable: its registry row */
	unsigned char scratch;    /* SCR_* bits: where it stands to alloca() memory */
};

/* node.scratch: a pointer value into alloca() memory, an lvalue stored in it */
enum { SCR_VALUE = 1, SCR_PLACE = 2 };

/* ast.c */
struct arena;
struct node *ast_new(struct arena *ar, enum node_kind kind, struct loc loc);
void ast_dump(FILE *out, const struct node *n); /* --dump-ast: one node a line, indented */
const char *ast_kind_name(enum node_kind kind);
const char *ast_op_name(int op); /* "+", "<<=", "->", ... as written */
int ast_list_len(const struct node *list);
/* The first node found deeper than max levels below root (its a, b, c, d
 * and list items one level down, its next siblings on its own), or NULL.
 * Walks with a stack of its own: sema and codegen recurse on the tree, and
 * a chain like 1 + 1 + ... or a->b->... is built by a loop, not nesting. */
const struct node *ast_deeper_than(const struct node *root, int max);

#endif
