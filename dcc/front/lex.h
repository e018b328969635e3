/*
 * The D lexer: source text -> tokens, pulled one at a time by the parser.
 * Probe descriptions are context dependent ("syscall::open*:entry" is one
 * token), so the parser chooses the mode for every token it asks for.
 */
#ifndef DCC_LEX_H
#define DCC_LEX_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "diag.h"

struct arena;

enum tok_kind {
	TOK_EOF = 0,
	TOK_IDENT,     /* text */
	TOK_KEYWORD,   /* op: enum keyword */
	TOK_RESERVED,  /* op: enum keyword (K_AUTO..K_COUNTER) */
	TOK_INT,       /* ival, iflags: INTF_* */
	TOK_CHAR,      /* ival (its bytes packed big-endian, unsigned), iflags INTF_CHAR */
	TOK_STRING,    /* str, slen: bytes after escapes */
	TOK_AGG,       /* str: "" for @, "name" for @name */
	TOK_MACRO,     /* str: "1", "target", ...; ival: 1 for $$N */
	TOK_PROBEDESC, /* text as written (may be empty) */
	TOK_PUNCT,     /* op: a character or OP_* / P_* */
	TOK_ASSIGN,    /* op: '=' or the binary operator of a compound assignment */
	TOK_PRAGMA,    /* "#pragma D ...": str = rest of the line after "D" */
};

/* Punctuators that have no OP_* in ast.h. */
enum { P_INC = 512, P_DEC, P_ELLIPSIS };

enum keyword {
	K_NONE = 0,
	K_SIZEOF, K_STRINGOF, K_OFFSETOF, K_XLATE, K_TRANSLATOR, K_INLINE, K_TYPEDEF,
	K_STRUCT, K_UNION, K_ENUM, K_SELF, K_THIS, K_STRING, K_PROVIDER,
	K_CHAR, K_SHORT, K_INT, K_LONG, K_SIGNED, K_UNSIGNED, K_FLOAT, K_DOUBLE,
	K_VOID, K_BOOL, K_CONST,
	/* reserved words */
	K_AUTO, K_BREAK, K_CASE, K_CONTINUE, K_DEFAULT, K_DO, K_ELSE, K_EXTERN, K_FOR,
	K_GOTO, K_IF, K_IMPORT, K_REGISTER, K_RESTRICT, K_RETURN, K_STATIC, K_SWITCH,
	K_VOLATILE, K_WHILE, K_COUNTER,
};

enum lex_mode { LEX_NORMAL, LEX_PROBE };

/* Where the lexer stands; tokens keep the state before them so the parser
 * can rewind and lex the same text again in another mode. */
struct lex_state {
	size_t pos;
	size_t line_start;
	uint32_t line;       /* physical line of pos, 1-based */
	int32_t line_delta;  /* reported line = physical line + delta (#line) */
	uint32_t file;
};

struct token {
	enum tok_kind kind;
	int op;
	const char *text;    /* points into the source */
	size_t len;
	struct loc loc;
	uint64_t ival;
	unsigned iflags;
	const char *str;
	size_t slen;
	struct lex_state st;
};

struct lexer {
	struct arena *ar;
	struct diag *dg;
	const char *src;
	size_t len;
	struct lex_state st;
	bool quiet;        /* report nothing (tentative looks, skipping) */
	bool peeking;      /* lex_peek: the state will be restored */
	bool stop;         /* too many errors: only EOF from now on */
	int err_start;     /* diag_errors() when lexing began */
	int max_errors;
	FILE *trace;       /* --dump-tokens: every token produced is printed */
};

void lex_init(struct lexer *lx, struct arena *ar, struct diag *dg, uint32_t file,
	      const char *text, size_t len);
struct token lex_next(struct lexer *lx, enum lex_mode mode);
/* The next token in normal mode without consuming it or reporting errors. */
struct token lex_peek(struct lexer *lx);
/* The first character after `off` that is not blank or a comment, or 0 at EOF. */
int lex_next_char(struct lexer *lx, size_t off);
/* Report an error, stopping everything after max_errors. Returns -1. */
int lex_error(struct lexer *lx, struct loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int lex_verror(struct lexer *lx, struct loc loc, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
/* A loc for `len` bytes at `p` inside tok's text (same line). */
struct loc lex_subloc(const struct token *tok, const char *p, size_t len);
/* The loc just after a token (e.g. for "expected ';'"). */
struct loc lex_after(const struct token *tok);
const char *lex_kind_name(enum tok_kind kind);
const char *lex_keyword_name(int kw);
void lex_print_token(FILE *out, const struct token *t);

#endif
