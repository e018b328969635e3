/*
 * The D lexer: turns source bytes into tokens on demand. It also handles the
 * '#' lines (pragmas, #line, and the cpp directives dcc refuses), skips
 * comments, decodes literals and checks macro variable names, reporting
 * clang-style errors with the exact location of the offending bytes.
 */
#include "lex.h"

#include <ctype.h>
#include <stdarg.h>
#include <string.h>
#include "arena.h"
#include "ast.h"

static const struct {
	const char *name;
	int kw;
	bool reserved;
} keywords[] = {
	{ "sizeof", K_SIZEOF, false }, { "stringof", K_STRINGOF, false },
	{ "offsetof", K_OFFSETOF, false }, { "xlate", K_XLATE, false },
	{ "translator", K_TRANSLATOR, false }, { "inline", K_INLINE, false },
	{ "typedef", K_TYPEDEF, false }, { "struct", K_STRUCT, false },
	{ "union", K_UNION, false }, { "enum", K_ENUM, false }, { "self", K_SELF, false },
	{ "this", K_THIS, false }, { "string", K_STRING, false },
	{ "provider", K_PROVIDER, false }, { "char", K_CHAR, false }, { "short", K_SHORT, false },
	{ "int", K_INT, false }, { "long", K_LONG, false }, { "signed", K_SIGNED, false },
	{ "unsigned", K_UNSIGNED, false }, { "float", K_FLOAT, false },
	{ "double", K_DOUBLE, false }, { "void", K_VOID, false }, { "_Bool", K_BOOL, false },
	{ "const", K_CONST, false }, { "auto", K_AUTO, true }, { "break", K_BREAK, true },
	{ "case", K_CASE, true }, { "continue", K_CONTINUE, true },
	{ "default", K_DEFAULT, true }, { "do", K_DO, true }, { "else", K_ELSE, true },
	{ "extern", K_EXTERN, true }, { "for", K_FOR, true }, { "goto", K_GOTO, true },
	{ "if", K_IF, true }, { "import", K_IMPORT, true }, { "register", K_REGISTER, true },
	{ "restrict", K_RESTRICT, true }, { "return", K_RETURN, true },
	{ "static", K_STATIC, true }, { "switch", K_SWITCH, true },
	{ "volatile", K_VOLATILE, true }, { "while", K_WHILE, true },
	{ "counter", K_COUNTER, true },
};

/* Longest first, so the first match is the right one. */
static const struct {
	const char *text;
	enum tok_kind kind;
	int op;
} puncts[] = {
	{ "<<=", TOK_ASSIGN, OP_SHL }, { ">>=", TOK_ASSIGN, OP_SHR },
	{ "...", TOK_PUNCT, P_ELLIPSIS },
	{ "->", TOK_PUNCT, OP_ARROW }, { "++", TOK_PUNCT, P_INC }, { "--", TOK_PUNCT, P_DEC },
	{ "<<", TOK_PUNCT, OP_SHL }, { ">>", TOK_PUNCT, OP_SHR }, { "<=", TOK_PUNCT, OP_LE },
	{ ">=", TOK_PUNCT, OP_GE }, { "==", TOK_PUNCT, OP_EQ }, { "!=", TOK_PUNCT, OP_NE },
	{ "&&", TOK_PUNCT, OP_LAND }, { "||", TOK_PUNCT, OP_LOR }, { "^^", TOK_PUNCT, OP_LXOR },
	{ "+=", TOK_ASSIGN, '+' }, { "-=", TOK_ASSIGN, '-' }, { "*=", TOK_ASSIGN, '*' },
	{ "/=", TOK_ASSIGN, '/' }, { "%=", TOK_ASSIGN, '%' }, { "&=", TOK_ASSIGN, '&' },
	{ "|=", TOK_ASSIGN, '|' }, { "^=", TOK_ASSIGN, '^' }, { "=", TOK_ASSIGN, '=' },
};

static const char *const macro_names[] = {
	"target", "pid", "ppid", "pgid", "sid", "uid", "gid", "euid", "egid",
};

static const char *const cpp_directives[] = {
	"include", "include_next", "define", "undef", "if", "ifdef", "ifndef", "elif",
	"else", "endif", "error", "warning", "import", "ident", "sccs", "assert",
};

void lex_init(struct lexer *lx, struct arena *ar, struct diag *dg, uint32_t file,
	      const char *text, size_t len)
{
	memset(lx, 0, sizeof(*lx));
	lx->ar = ar;
	lx->dg = dg;
	lx->src = text;
	lx->len = len;
	lx->st.file = file;
	lx->st.line = 1;
	lx->err_start = diag_errors(dg);
	lx->max_errors = 20;
}

int lex_error(struct lexer *lx, struct loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = lex_verror(lx, loc, fmt, ap);
	va_end(ap);
	return r;
}

int lex_verror(struct lexer *lx, struct loc loc, const char *fmt, va_list ap)
{
	if (lx->quiet || lx->stop)
		return -1;
	char buf[512];
	vsnprintf(buf, sizeof(buf), fmt, ap);
	diag_error(lx->dg, loc, "%s", buf);
	if (diag_errors(lx->dg) - lx->err_start >= lx->max_errors) {
		diag_fatal(lx->dg, "too many errors emitted, stopping now");
		lx->stop = true;
	}
	return -1;
}

static struct loc loc_at(const struct lexer *lx, size_t off, size_t len)
{
	return (struct loc){
		.file = lx->st.file,
		.off = (uint32_t)off,
		.len = (uint32_t)len,
		.line = (uint32_t)((int32_t)lx->st.line + lx->st.line_delta),
		.col = (uint32_t)(off - lx->st.line_start + 1),
	};
}

struct loc lex_subloc(const struct token *tok, const char *p, size_t len)
{
	struct loc l = tok->loc;
	size_t d = (size_t)(p - tok->text);
	l.off += (uint32_t)d;
	l.col += (uint32_t)d;
	l.len = (uint32_t)len;
	return l;
}

struct loc lex_after(const struct token *tok)
{
	struct loc l = tok->loc;
	l.off += tok->len;
	l.col += tok->len;
	l.len = 0;
	return l;
}

static int cur(const struct lexer *lx)
{
	return lx->st.pos < lx->len ? (unsigned char)lx->src[lx->st.pos] : 0;
}

static int at(const struct lexer *lx, size_t off)
{
	return off < lx->len ? (unsigned char)lx->src[off] : 0;
}

static bool is_ident_start(int c)
{
	return isalpha(c) || c == '_';
}

static bool is_ident_char(int c)
{
	return isalnum(c) || c == '_';
}

static bool is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static void newline(struct lexer *lx)
{
	lx->st.pos++;
	lx->st.line++;
	lx->st.line_start = lx->st.pos;
}

/* Skips blanks, newlines and comments. */
static void skip_space(struct lexer *lx)
{
	for (;;) {
		int c = cur(lx);
		if (is_blank(c)) {
			lx->st.pos++;
		} else if (c == '\n') {
			newline(lx);
		} else if (c == '/' && at(lx, lx->st.pos + 1) == '*') {
			struct loc open = loc_at(lx, lx->st.pos, 2);
			lx->st.pos += 2;
			for (;;) {
				if (lx->st.pos >= lx->len) {
					lex_error(lx, open, "unterminated /* comment");
					break;
				}
				if (cur(lx) == '*' && at(lx, lx->st.pos + 1) == '/') {
					lx->st.pos += 2;
					break;
				}
				if (cur(lx) == '\n')
					newline(lx);
				else
					lx->st.pos++;
			}
		} else if (c == '/' && at(lx, lx->st.pos + 1) == '/') {
			while (lx->st.pos < lx->len && cur(lx) != '\n')
				lx->st.pos++;
		} else {
			return;
		}
	}
}

int lex_next_char(struct lexer *lx, size_t off)
{
	while (off < lx->len) {
		int c = at(lx, off);
		if (is_blank(c) || c == '\n') {
			off++;
		} else if (c == '/' && at(lx, off + 1) == '*') {
			const char *end = NULL;
			if (off + 2 < lx->len)
				end = memmem(lx->src + off + 2, lx->len - off - 2, "*/", 2);
			if (!end)
				return 0;
			off = (size_t)(end - lx->src) + 2;
		} else if (c == '/' && at(lx, off + 1) == '/') {
			while (off < lx->len && at(lx, off) != '\n')
				off++;
		} else {
			return c;
		}
	}
	return 0;
}

static bool at_line_start(const struct lexer *lx)
{
	for (size_t i = lx->st.line_start; i < lx->st.pos; i++)
		if (!is_blank(at(lx, i)))
			return false;
	return true;
}

static size_t end_of_line(const struct lexer *lx, size_t from)
{
	while (from < lx->len && at(lx, from) != '\n')
		from++;
	return from;
}

static size_t skip_blanks(const struct lexer *lx, size_t p, size_t end)
{
	while (p < end && is_blank(at(lx, p)))
		p++;
	return p;
}

/* "#line N ["file"]" or the cpp marker "# N "file"": the next line is N. */
static void line_directive(struct lexer *lx, size_t p, size_t eol, size_t hash)
{
	size_t q = p;
	uint64_t n = 0;
	while (q < eol && isdigit(at(lx, q)) && n < 0x7fffffff)
		n = n * 10 + (uint64_t)(at(lx, q++) - '0');
	if (q == p || n == 0 || n >= 0x7fffffff) {
		lex_error(lx, loc_at(lx, q < eol ? q : hash, 1),
			  "#line directive requires a positive integer argument");
		return;
	}
	q = skip_blanks(lx, q, eol);
	const char *name = NULL;
	if (q < eol && at(lx, q) == '"') {
		size_t s = q + 1, e = s;
		while (e < eol && at(lx, e) != '"')
			e++;
		if (e >= eol) {
			lex_error(lx, loc_at(lx, q, 1), "unterminated string literal");
			return;
		}
		name = arena_strndup(lx->ar, lx->src + s, e - s);
	}
	if (lx->peeking)
		return;
	/* The line after this one is reported as n. */
	lx->st.line_delta = (int32_t)n - (int32_t)(lx->st.line + 1);
	if (name)
		lx->st.file = diag_add_source(lx->dg, name, lx->src, lx->len);
}

/* A '#' at the start of a line. Returns true with *tok set for "#pragma D". */
static bool directive(struct lexer *lx, struct token *tok)
{
	size_t hash = lx->st.pos;
	size_t eol = end_of_line(lx, hash);
	size_t p = skip_blanks(lx, hash + 1, eol);
	size_t w = p;
	while (w < eol && is_ident_char(at(lx, w)))
		w++;
	const char *word = lx->src + p;
	size_t wlen = w - p;

	/* A control line ends at its newline, as in DTrace: a file whose last
	 * line is one is refused rather than the line silently acted on. */
	if (eol == lx->len) {
		size_t te = eol;
		while (te > hash && is_blank(at(lx, te - 1)))
			te--;
		lex_error(lx, loc_at(lx, hash, te - hash), "end of file before the end of this "
			  "'#' line (it needs a newline)");
		lx->st.pos = eol;
		return false;
	}
	if (wlen == 6 && !memcmp(word, "pragma", 6)) {
		size_t q = skip_blanks(lx, w, eol);
		if (at(lx, q) == 'D' && (q + 1 == eol || is_blank(at(lx, q + 1)))) {
			size_t s = skip_blanks(lx, q + 1, eol), e = eol;
			while (e > s && is_blank(at(lx, e - 1)))
				e--;
			size_t te = eol;
			while (te > hash && is_blank(at(lx, te - 1)))
				te--;
			memset(tok, 0, sizeof(*tok));
			tok->kind = TOK_PRAGMA;
			tok->text = lx->src + hash;
			tok->len = te - hash;
			tok->loc = loc_at(lx, hash, te - hash);
			tok->str = arena_strndup(lx->ar, lx->src + s, e - s);
			tok->slen = e - s;
			lx->st.pos = eol;
			return true;
		}
		/* Other pragmas belong to other compilers: ignored. */
	} else if (p < eol && isdigit(at(lx, p))) {
		line_directive(lx, p, eol, hash);
	} else if (wlen == 4 && !memcmp(word, "line", 4)) {
		line_directive(lx, skip_blanks(lx, w, eol), eol, hash);
	} else if (wlen > 0) {
		bool known = false;
		for (size_t i = 0; i < sizeof(cpp_directives) / sizeof(cpp_directives[0]); i++)
			if (strlen(cpp_directives[i]) == wlen && !memcmp(cpp_directives[i], word, wlen))
				known = true;
		if (known)
			lex_error(lx, loc_at(lx, hash, w - hash),
				  "preprocessor directive '#%.*s' needs the C "
				  "preprocessor: use -C", (int)wlen, word);
		else
			lex_error(lx, loc_at(lx, hash, w - hash),
				  "invalid preprocessing directive '#%.*s'", (int)wlen, word);
	} else if (p < eol) {
		lex_error(lx, loc_at(lx, p, 1), "invalid preprocessing directive");
	}
	lx->st.pos = eol;
	return false;
}

static void char_name(char *buf, size_t size, int c)
{
	if (isprint(c))
		snprintf(buf, size, "%c", c);
	else
		snprintf(buf, size, "\\x%02x", c);
}

/* Whether DTrace's lexer decodes "\\c" in a string or character constant:
 * it keeps the backslash of any other escape, \? and \' included, so that
 * "\?" is two characters and '\'' is 0x5c27. */
static bool dtrace_escape(int c)
{
	return strchr("abfnrtvx\"\\01234567", c) != NULL && c != 0;
}

/* One escape sequence at src[*p] == '\\'; returns the byte value. */
static int escape(struct lexer *lx, size_t *p, size_t end)
{
	size_t bs = *p;
	int c = at(lx, bs + 1);
	*p = bs + 2;
	switch (c) {
	case 'a': return '\a';
	case 'b': return '\b';
	case 'f': return '\f';
	case 'n': return '\n';
	case 'r': return '\r';
	case 't': return '\t';
	case 'v': return '\v';
	case '\\': return '\\';
	case '\'': return '\'';
	case '"': return '"';
	case '?': return '?';
	case 'x': {
		unsigned v = 0;
		size_t q = bs + 2;
		bool big = false;
		while (q < end && isxdigit(at(lx, q))) {
			int d = at(lx, q++);
			v = v * 16 + (unsigned)(isdigit(d) ? d - '0' : tolower(d) - 'a' + 10);
			if (v > 0xff)
				big = true;
		}
		*p = q;
		if (q == bs + 2)
			lex_error(lx, loc_at(lx, bs, 2), "\\x used with no following hex digits");
		else if (big)
			lex_error(lx, loc_at(lx, bs, q - bs), "hex escape sequence out of range");
		return (int)(v & 0xff);
	}
	default:
		if (c >= '0' && c <= '7') {
			unsigned v = 0;
			size_t q = bs + 1;
			while (q < end && q < bs + 4 && at(lx, q) >= '0' && at(lx, q) <= '7')
				v = v * 8 + (unsigned)(at(lx, q++) - '0');
			*p = q;
			if (v > 0xff)
				lex_error(lx, loc_at(lx, bs, q - bs),
					  "octal escape sequence out of range");
			return (int)(v & 0xff);
		}
		if (c == 0 || c == '\n') {
			*p = bs + 1;
			return '\\';
		}
		char nb[8];
		char_name(nb, sizeof(nb), c);
		lex_error(lx, loc_at(lx, bs, 2), "unknown escape sequence '\\%s'", nb);
		return c;
	}
}

static void string_lit(struct lexer *lx, struct token *t)
{
	size_t open = lx->st.pos, p = open + 1;
	size_t eol = end_of_line(lx, open);
	char *buf = arena_alloc(lx->ar, eol - open + 1);
	size_t n = 0;
	bool closed = false;
	while (p < eol) {
		int c = at(lx, p);
		if (c == '"') {
			closed = true;
			p++;
			break;
		}
		if (c == '\\' && p + 1 < eol && dtrace_escape(at(lx, p + 1))) {
			buf[n++] = (char)escape(lx, &p, eol);
		} else if (c == '\\' && p + 1 < eol) {
			buf[n++] = '\\';
			buf[n++] = (char)at(lx, p + 1);
			p += 2;
		} else {
			buf[n++] = (char)c;
			p++;
		}
	}
	if (!closed)
		lex_error(lx, loc_at(lx, open, 1), "unterminated string literal");
	buf[n] = 0;
	t->kind = TOK_STRING;
	t->str = buf;
	t->slen = n;
	lx->st.pos = p;
}

/* A character constant holds up to 8 bytes, packed big-endian into its
 * value as DTrace (and GCC) do: 'ab' is 0x6162. The value is unsigned bytes,
 * so '\377' is 255, and its type follows from the value (sema). */
static void char_lit(struct lexer *lx, struct token *t)
{
	size_t open = lx->st.pos, p = open + 1;
	size_t eol = end_of_line(lx, open);
	int nchars = 0;
	uint64_t value = 0;
	bool closed = false;
	while (p < eol) {
		int c = at(lx, p);
		if (c == '\'') {
			closed = true;
			p++;
			break;
		}
		if (c == '\\' && p + 1 < eol && dtrace_escape(at(lx, p + 1))) {
			c = escape(lx, &p, eol);
		} else if (c == '\\' && p + 1 < eol) {
			value = value << 8 | '\\';
			nchars++;
			c = at(lx, p + 1);
			p += 2;
		} else {
			p++;
		}
		value = value << 8 | (uint8_t)c;
		nchars++;
	}
	lx->st.pos = p;
	t->kind = TOK_CHAR;
	t->iflags = INTF_CHAR;
	if (!closed)
		lex_error(lx, loc_at(lx, open, 1), "unterminated character constant");
	else if (nchars == 0)
		lex_error(lx, loc_at(lx, open, p - open), "empty character constant");
	else if (nchars > 8)
		lex_error(lx, loc_at(lx, open, p - open), "character constant is too long");
	t->ival = value;
}

static bool suffix_ok(const char *s, size_t n, unsigned *flags)
{
	size_t i = 0;
	bool u = false;
	*flags = 0;
	if (i < n && (s[i] == 'u' || s[i] == 'U')) {
		u = true;
		i++;
	}
	if (i + 1 < n && ((s[i] == 'l' && s[i + 1] == 'l') || (s[i] == 'L' && s[i + 1] == 'L'))) {
		*flags |= INTF_LONGLONG;
		i += 2;
	} else if (i < n && (s[i] == 'l' || s[i] == 'L')) {
		*flags |= INTF_LONG;
		i++;
	}
	if (!u && i < n && (s[i] == 'u' || s[i] == 'U')) {
		u = true;
		i++;
	}
	if (u)
		*flags |= INTF_UNSIGNED;
	return i == n;
}

static void number(struct lexer *lx, struct token *t)
{
	size_t start = lx->st.pos, p = start;
	int base = 10;
	uint64_t v = 0;
	bool big = false;
	t->kind = TOK_INT;

	if (at(lx, p) == '0' && (at(lx, p + 1) == 'x' || at(lx, p + 1) == 'X')) {
		base = 16;
		p += 2;
		size_t d0 = p;
		while (isxdigit(at(lx, p))) {
			int d = at(lx, p++);
			unsigned dv = (unsigned)(isdigit(d) ? d - '0' : tolower(d) - 'a' + 10);
			if (v >> 60)
				big = true;
			v = v * 16 + dv;
		}
		if (p == d0) {
			size_t e = p;
			while (is_ident_char(at(lx, e)))
				e++;
			lx->st.pos = e;
			lex_error(lx, loc_at(lx, start + 1, e - start - 1),
				  "invalid suffix '%.*s' on integer constant",
				  (int)(e - start - 1), lx->src + start + 1);
			return;
		}
	} else {
		if (at(lx, p) == '0')
			base = 8;
		size_t bad = 0;
		while (isdigit(at(lx, p))) {
			int d = at(lx, p) - '0';
			if (base == 8 && d > 7 && !bad)
				bad = p;
			uint64_t nv = v * (uint64_t)base + (uint64_t)d;
			if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
				big = true;
			v = nv;
			p++;
		}
		if (at(lx, p) == '.' || at(lx, p) == 'e' || at(lx, p) == 'E') {
			while (is_ident_char(at(lx, p)) || at(lx, p) == '.' ||
			       ((at(lx, p) == '+' || at(lx, p) == '-') &&
				(at(lx, p - 1) == 'e' || at(lx, p - 1) == 'E')))
				p++;
			lx->st.pos = p;
			lex_error(lx, loc_at(lx, start, p - start),
				  "floating-point constants are not supported");
			return;
		}
		if (bad) {
			while (is_ident_char(at(lx, p)))
				p++;
			lx->st.pos = p;
			lex_error(lx, loc_at(lx, bad, 1), "invalid digit '%c' in octal constant",
				  at(lx, bad));
			return;
		}
	}
	size_t s = p;
	while (is_ident_char(at(lx, p)))
		p++;
	lx->st.pos = p;
	if (!suffix_ok(lx->src + s, p - s, &t->iflags)) {
		lex_error(lx, loc_at(lx, s, p - s), "invalid suffix '%.*s' on integer constant",
			  (int)(p - s), lx->src + s);
		t->iflags = 0;
		return;
	}
	if (big) {
		lex_error(lx, loc_at(lx, start, p - start),
			  "integer literal is too large to be represented in any integer type");
		return;
	}
	t->ival = v;
}

static void macro_var(struct lexer *lx, struct token *t)
{
	size_t start = lx->st.pos, p = start + 1;
	t->kind = TOK_MACRO;
	if (at(lx, p) == '$') {
		t->ival = 1;
		p++;
	}
	size_t s = p;
	while (is_ident_char(at(lx, p)))
		p++;
	lx->st.pos = p;
	t->str = arena_strndup(lx->ar, lx->src + s, p - s);
	t->slen = p - s;
	if (p == s) {
		if (t->ival)
			lex_error(lx, loc_at(lx, start, p - start), "expected a number after '$$'");
		else
			lex_error(lx, loc_at(lx, start, 1), "invalid character '$'");
		return;
	}
	bool digits = true;
	for (size_t i = s; i < p; i++)
		if (!isdigit(at(lx, i)))
			digits = false;
	if (digits)
		return;
	if (!t->ival)
		for (size_t i = 0; i < sizeof(macro_names) / sizeof(macro_names[0]); i++)
			if (!strcmp(macro_names[i], t->str))
				return;
	lex_error(lx, loc_at(lx, start, p - start), "unknown macro variable '%.*s'",
		  (int)(p - start), lx->src + start);
}

static bool probe_char(int c)
{
	return isalnum(c) || strchr("_-$:.?*\\[]!", c);
}

static void probe_desc(struct lexer *lx, struct token *t)
{
	size_t start = lx->st.pos, p = start;
	size_t bad = (size_t)-1;
	for (;;) {
		int c = at(lx, p);
		if (!c || isspace(c) || c == '/' || c == '{' || c == ',')
			break;
		if (!probe_char(c) && bad == (size_t)-1)
			bad = p;
		p++;
	}
	lx->st.pos = p;
	t->kind = TOK_PROBEDESC;
	if (bad != (size_t)-1) {
		char nb[8];
		char_name(nb, sizeof(nb), at(lx, bad));
		lex_error(lx, loc_at(lx, bad, 1), "invalid character '%s' in probe description",
			  nb);
	}
}

/*
 * The keywords and punctuators by first character: chains through the two
 * tables in table order (so punctuators stay longest first), made once.
 * Scanning the whole tables for every token was a fifth of the lexer.
 */
enum { NKEYWORDS = sizeof(keywords) / sizeof(keywords[0]),
       NPUNCTS = sizeof(puncts) / sizeof(puncts[0]) };
static unsigned char kw_head[256], kw_next[NKEYWORDS]; /* index + 1; 0 ends */
static unsigned char pu_head[256], pu_next[NPUNCTS];
static bool chains_made;

static void make_chains(void)
{
	for (size_t i = NKEYWORDS; i-- > 0;) {
		unsigned char c = (unsigned char)keywords[i].name[0];
		kw_next[i] = kw_head[c];
		kw_head[c] = (unsigned char)(i + 1);
	}
	for (size_t i = NPUNCTS; i-- > 0;) {
		unsigned char c = (unsigned char)puncts[i].text[0];
		pu_next[i] = pu_head[c];
		pu_head[c] = (unsigned char)(i + 1);
	}
	chains_made = true;
}

static bool punct(struct lexer *lx, struct token *t)
{
	const char *s = lx->src + lx->st.pos;
	size_t left = lx->len - lx->st.pos;
	if (!chains_made)
		make_chains();
	for (unsigned i = pu_head[(unsigned char)*s]; i; i = pu_next[i - 1]) {
		const char *p = puncts[i - 1].text;
		size_t n = p[1] ? p[2] ? 3 : 2 : 1;
		if (n <= left && !memcmp(s, p, n)) {
			t->kind = puncts[i - 1].kind;
			t->op = puncts[i - 1].op;
			lx->st.pos += n;
			return true;
		}
	}
	if (*s && strchr("+-*/%&|^~!<>?:;,.()[]{}`", *s)) {
		t->kind = TOK_PUNCT;
		t->op = (unsigned char)*s;
		lx->st.pos++;
		return true;
	}
	return false;
}

static void ident(struct lexer *lx, struct token *t)
{
	size_t p = lx->st.pos;
	while (is_ident_char(at(lx, p)))
		p++;
	size_t n = p - lx->st.pos;
	const char *s = lx->src + lx->st.pos;
	lx->st.pos = p;
	t->kind = TOK_IDENT;
	if (!chains_made)
		make_chains();
	for (unsigned i = kw_head[(unsigned char)s[0]]; i; i = kw_next[i - 1]) {
		const char *k = keywords[i - 1].name;
		if (!strncmp(k, s, n) && !k[n]) {
			t->kind = keywords[i - 1].reserved ? TOK_RESERVED : TOK_KEYWORD;
			t->op = keywords[i - 1].kw;
			return;
		}
	}
}

static struct token eof_token(struct lexer *lx)
{
	struct token t = { .kind = TOK_EOF, .text = lx->src + lx->len };
	t.st = lx->st;
	/* Point just past the last character of the last line. */
	size_t off = lx->len;
	uint32_t line = lx->st.line;
	if (off > 0 && lx->src[off - 1] == '\n') {
		off--;
		line--;
	}
	size_t ls = off;
	while (ls > 0 && lx->src[ls - 1] != '\n')
		ls--;
	t.loc = (struct loc){
		.file = lx->st.file,
		.off = (uint32_t)off,
		.len = 0,
		.line = (uint32_t)((int32_t)line + lx->st.line_delta),
		.col = (uint32_t)(off - ls + 1),
	};
	return t;
}

static struct token next(struct lexer *lx, enum lex_mode mode)
{
	struct token t;
	/* Once errors stopped the lexer, only EOF; but a token whose lexing hits
	 * the limit (on an invalid character before it) is still returned: the
	 * parser just peeked it (quietly) and acts on its kind. */
	if (lx->stop)
		return eof_token(lx);
	for (;;) {
		if (lx->st.pos == 0 && lx->len >= 2 && lx->src[0] == '#' && lx->src[1] == '!')
			lx->st.pos = end_of_line(lx, 0);
		skip_space(lx);
		if (lx->st.pos >= lx->len)
			return eof_token(lx);
		if (cur(lx) == '#' && at_line_start(lx)) {
			if (directive(lx, &t)) {
				t.st = lx->st; /* pragmas are never re-lexed */
				return t;
			}
			continue;
		}
		memset(&t, 0, sizeof(t));
		t.st = lx->st;
		size_t start = lx->st.pos;
		int c = cur(lx);
		if (mode == LEX_PROBE) {
			probe_desc(lx, &t);
		} else if (is_ident_start(c)) {
			ident(lx, &t);
		} else if (isdigit(c)) {
			number(lx, &t);
		} else if (c == '.' && isdigit(at(lx, start + 1))) {
			number(lx, &t);
		} else if (c == '"') {
			string_lit(lx, &t);
		} else if (c == '\'') {
			char_lit(lx, &t);
		} else if (c == '@') {
			size_t p = start + 1;
			while (is_ident_char(at(lx, p)))
				p++;
			t.kind = TOK_AGG;
			t.str = arena_strndup(lx->ar, lx->src + start + 1, p - start - 1);
			t.slen = p - start - 1;
			lx->st.pos = p;
		} else if (c == '$') {
			macro_var(lx, &t);
		} else if (!punct(lx, &t)) {
			char nb[8];
			char_name(nb, sizeof(nb), c);
			lex_error(lx, loc_at(lx, start, 1), "invalid character '%s'", nb);
			lx->st.pos++;
			continue;
		}
		t.text = lx->src + start;
		t.len = lx->st.pos - start;
		struct lex_state now = lx->st;
		lx->st = t.st;
		t.loc = loc_at(lx, start, t.len);
		lx->st = now;
		return t;
	}
}

struct token lex_next(struct lexer *lx, enum lex_mode mode)
{
	struct token t = next(lx, mode);
	if (lx->trace && !lx->quiet && t.kind != TOK_EOF)
		lex_print_token(lx->trace, &t);
	return t;
}

struct token lex_peek(struct lexer *lx)
{
	struct lex_state saved = lx->st;
	bool quiet = lx->quiet, stop = lx->stop;
	lx->quiet = true;
	lx->peeking = true;
	struct token t = next(lx, LEX_NORMAL);
	lx->st = saved;
	lx->quiet = quiet;
	lx->peeking = false;
	lx->stop = stop;
	return t;
}

const char *lex_kind_name(enum tok_kind kind)
{
	switch (kind) {
	case TOK_EOF: return "EOF";
	case TOK_IDENT: return "IDENT";
	case TOK_KEYWORD: return "KEYWORD";
	case TOK_RESERVED: return "RESERVED";
	case TOK_INT: return "INT";
	case TOK_CHAR: return "CHAR";
	case TOK_STRING: return "STRING";
	case TOK_AGG: return "AGG";
	case TOK_MACRO: return "MACRO";
	case TOK_PROBEDESC: return "PROBEDESC";
	case TOK_PUNCT: return "PUNCT";
	case TOK_ASSIGN: return "ASSIGN";
	case TOK_PRAGMA: return "PRAGMA";
	}
	return "?";
}

const char *lex_keyword_name(int kw)
{
	for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
		if (keywords[i].kw == kw)
			return keywords[i].name;
	return "?";
}

void lex_print_token(FILE *out, const struct token *t)
{
	fprintf(out, "%u:%u %s '%.*s'", t->loc.line, t->loc.col, lex_kind_name(t->kind),
		(int)t->len, t->text);
	switch (t->kind) {
	case TOK_INT:
	case TOK_CHAR:
		fprintf(out, " %lld", (long long)t->ival);
		break;
	case TOK_STRING:
		fprintf(out, " %zu", t->slen);
		break;
	default:
		break;
	}
	fputc('\n', out);
}
