/*
 * Syntax tree helpers: node allocation, names of kinds and operators, and the
 * --dump-ast printer (one node a line, indented by depth, labels on the slots
 * that would otherwise be ambiguous).
 */
#include "ast.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include "arena.h"

struct node *ast_new(struct arena *ar, enum node_kind kind, struct loc loc)
{
	struct node *n = arena_new(ar, struct node);
	n->kind = kind;
	n->loc = loc;
	n->op_loc = loc;
	return n;
}

const char *ast_kind_name(enum node_kind kind)
{
	switch (kind) {
	case N_PROGRAM: return "N_PROGRAM";
	case N_CLAUSE: return "N_CLAUSE";
	case N_PROBEDESC: return "N_PROBEDESC";
	case N_PRAGMA: return "N_PRAGMA";
	case N_OPTION: return "N_OPTION";
	case N_DECL: return "N_DECL";
	case N_TSPEC: return "N_TSPEC";
	case N_DECLARATOR: return "N_DECLARATOR";
	case N_ENUMERATOR: return "N_ENUMERATOR";
	case N_TYPENAME: return "N_TYPENAME";
	case N_INLINE: return "N_INLINE";
	case N_TRANSLATOR: return "N_TRANSLATOR";
	case N_XMEMBER: return "N_XMEMBER";
	case N_PROVIDER: return "N_PROVIDER";
	case N_INT: return "N_INT";
	case N_STR: return "N_STR";
	case N_IDENT: return "N_IDENT";
	case N_MACRO: return "N_MACRO";
	case N_SELF: return "N_SELF";
	case N_THIS: return "N_THIS";
	case N_AGG: return "N_AGG";
	case N_UNOP: return "N_UNOP";
	case N_BINOP: return "N_BINOP";
	case N_ASSIGN: return "N_ASSIGN";
	case N_COND: return "N_COND";
	case N_COMMA: return "N_COMMA";
	case N_CALL: return "N_CALL";
	case N_INDEX: return "N_INDEX";
	case N_MEMBER: return "N_MEMBER";
	case N_CAST: return "N_CAST";
	case N_SIZEOF: return "N_SIZEOF";
	case N_STRINGOF: return "N_STRINGOF";
	case N_OFFSETOF: return "N_OFFSETOF";
	case N_XLATE: return "N_XLATE";
	case N_EMPTY: return "N_EMPTY";
	}
	return "N_?";
}

const char *ast_op_name(int op)
{
	static const char *const multi[] = {
		[OP_SHL - OP_SHL] = "<<", [OP_SHR - OP_SHL] = ">>", [OP_LE - OP_SHL] = "<=",
		[OP_GE - OP_SHL] = ">=", [OP_EQ - OP_SHL] = "==", [OP_NE - OP_SHL] = "!=",
		[OP_LAND - OP_SHL] = "&&", [OP_LOR - OP_SHL] = "||", [OP_LXOR - OP_SHL] = "^^",
		[OP_ARROW - OP_SHL] = "->", [OP_PREINC - OP_SHL] = "++",
		[OP_PREDEC - OP_SHL] = "--", [OP_POSTINC - OP_SHL] = "++",
		[OP_POSTDEC - OP_SHL] = "--",
	};
	static const char singles[] = "+-*/%&|^<>!~=.?:,";
	static char one[sizeof(singles)][2];
	if (op >= OP_SHL && op <= OP_POSTDEC)
		return multi[op - OP_SHL];
	for (size_t i = 0; singles[i]; i++) {
		if (singles[i] == op) {
			one[i][0] = (char)op;
			return one[i];
		}
	}
	return "?";
}

int ast_list_len(const struct node *list)
{
	int n = 0;
	for (; list; list = list->next)
		n++;
	return n;
}

const struct node *ast_deeper_than(const struct node *root, int max)
{
	struct item {
		const struct node *n;
		int depth;
	} *stack = NULL;
	size_t len = 0, cap = 0;
	const struct node *found = NULL;

	if (root) {
		stack = malloc(sizeof(*stack) * (cap = 64));
		if (!stack)
			abort();
		stack[len++] = (struct item){ root, 0 };
	}
	while (len > 0 && !found) {
		struct item it = stack[--len];
		if (it.depth > max) {
			found = it.n;
			break;
		}
		/* popped a first: the leftmost deep node is the one reported */
		const struct node *kids[6] = { it.n->next, it.n->list, it.n->d, it.n->c,
					       it.n->b, it.n->a };
		for (int i = 0; i < 6; i++) {
			if (!kids[i])
				continue;
			if (len == cap) {
				stack = realloc(stack, sizeof(*stack) * (cap *= 2));
				if (!stack)
					abort();
			}
			stack[len++] = (struct item){ kids[i], it.depth + (i > 0) };
		}
	}
	free(stack);
	return found;
}

static void indent(FILE *out, int depth, const char *label)
{
	for (int i = 0; i < depth; i++)
		fputs("  ", out);
	if (label)
		fprintf(out, "%s: ", label);
}

static void quoted(FILE *out, const char *s, size_t n)
{
	fputc('"', out);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '\n': fputs("\\n", out); break;
		case '\t': fputs("\\t", out); break;
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		default:
			if (isprint(c))
				fputc(c, out);
			else
				fprintf(out, "\\%03o", c);
		}
	}
	fputc('"', out);
}

static const char *storage_name(uint64_t st)
{
	switch (st) {
	case ST_TYPEDEF: return "typedef";
	case ST_EXTERN: return "extern";
	case ST_STATIC: return "static";
	case ST_REGISTER: return "register";
	case ST_AUTO: return "auto";
	case ST_SELF: return "self";
	case ST_THIS: return "this";
	default: return NULL;
	}
}

/* N_TSPEC: qualifiers, module scope and the specifier kind. */
static void tspec_details(FILE *out, const struct node *n)
{
	if (n->iflags & TSF_CONST)
		fputs(" const", out);
	if (n->iflags & TSF_VOLATILE)
		fputs(" volatile", out);
	fprintf(out, " %s%s", n->str ? n->str : "", n->str ? "`" : "");
	switch (n->ival) {
	case TS_BASE: fprintf(out, "%s", n->name); break;
	case TS_TYPEDEF: fprintf(out, "typedef %s", n->name); break;
	case TS_STRUCT: fprintf(out, "struct %s", n->name ? n->name : "<anon>"); break;
	case TS_UNION: fprintf(out, "union %s", n->name ? n->name : "<anon>"); break;
	case TS_ENUM: fprintf(out, "enum %s", n->name ? n->name : "<anon>"); break;
	}
	if (n->iflags & TSF_BODY)
		fputs(" {}", out);
}

/* N_DECLARATOR: pointer depth, name, and () for a function. */
static void declarator_details(FILE *out, const struct node *n)
{
	fputc(' ', out);
	for (uint64_t i = 0; i < n->ival; i++)
		fputc('*', out);
	fputs(n->name ? n->name : "<abstract>", out);
	if (n->iflags & (DF_FUNC | DF_FUNCPTR))
		fputs(n->iflags & DF_FUNCPTR ? "(*)()" : "()", out);
}

/* N_INT: the value and its suffixes. */
static void int_details(FILE *out, const struct node *n)
{
	fprintf(out, " %llu", (unsigned long long)n->ival);
	if (n->iflags & INTF_UNSIGNED)
		fputs(" U", out);
	if (n->iflags & INTF_LONG)
		fputs(" L", out);
	if (n->iflags & INTF_LONGLONG)
		fputs(" LL", out);
	if (n->iflags & INTF_CHAR)
		fputs(" char", out);
}

static void details(FILE *out, const struct node *n)
{
	const char *s;
	switch (n->kind) {
	case N_CLAUSE:
		if (n->ival)
			fputs(" default-action", out);
		break;
	case N_PROBEDESC:
		fprintf(out, " '%s' [%s:%s:%s:%s]", n->str, n->prov, n->mod, n->func, n->pname);
		if (n->ival)
			fprintf(out, " id=%llu", (unsigned long long)n->ival);
		break;
	case N_PRAGMA:
		fprintf(out, " %s", n->name);
		if (n->str && *n->str)
			fprintf(out, " '%s'", n->str);
		break;
	case N_OPTION:
		fprintf(out, " %s", n->name);
		if (n->str)
			fprintf(out, "='%s'", n->str);
		break;
	case N_DECL:
		if ((s = storage_name(n->ival)))
			fprintf(out, " %s", s);
		break;
	case N_TSPEC:
		tspec_details(out, n);
		break;
	case N_DECLARATOR:
		declarator_details(out, n);
		break;
	case N_ENUMERATOR:
	case N_INLINE:
	case N_XMEMBER:
	case N_PROVIDER:
	case N_IDENT:
		fprintf(out, " %s", n->name);
		break;
	case N_TRANSLATOR:
		fprintf(out, " <%s>", n->name);
		break;
	case N_INT:
		int_details(out, n);
		break;
	case N_STR:
		fputc(' ', out);
		quoted(out, n->str, n->slen);
		break;
	case N_MACRO:
		fprintf(out, " %s%s", n->ival ? "$$" : "$", n->name);
		break;
	case N_SELF:
		fprintf(out, " self->%s", n->name);
		break;
	case N_THIS:
		fprintf(out, " this->%s", n->name);
		break;
	case N_AGG:
		fprintf(out, " @%s", n->name);
		break;
	case N_UNOP:
		if (n->op == OP_PREINC || n->op == OP_PREDEC)
			fprintf(out, " 'pre%s'", ast_op_name(n->op));
		else if (n->op == OP_POSTINC || n->op == OP_POSTDEC)
			fprintf(out, " 'post%s'", ast_op_name(n->op));
		else
			fprintf(out, " '%s'", ast_op_name(n->op));
		break;
	case N_BINOP:
		fprintf(out, " '%s'", ast_op_name(n->op));
		break;
	case N_ASSIGN:
		if (n->op == '=')
			fputs(" '='", out);
		else
			fprintf(out, " '%s='", ast_op_name(n->op));
		break;
	case N_CALL:
		if (n->name)
			fprintf(out, " %s", n->name);
		break;
	case N_MEMBER:
		fprintf(out, " '%s' %s", ast_op_name(n->op), n->name);
		break;
	case N_SIZEOF:
		fputs(n->ival ? " type" : " expr", out);
		break;
	case N_OFFSETOF:
		fprintf(out, " %s", n->name);
		break;
	default:
		break;
	}
}

static void dump(FILE *out, const struct node *n, int depth, const char *label);

static void dump_list(FILE *out, const struct node *l, int depth, const char *label)
{
	for (; l; l = l->next)
		dump(out, l, depth, label);
}

static void dump(FILE *out, const struct node *n, int depth, const char *label)
{
	indent(out, depth, label);
	fputs(ast_kind_name(n->kind), out);
	details(out, n);
	fprintf(out, " %u:%u\n", n->loc.line, n->loc.col);
	depth++;
	switch (n->kind) {
	case N_CLAUSE:
		dump_list(out, n->list, depth, NULL);
		if (n->a)
			dump(out, n->a, depth, "pred");
		dump_list(out, n->b, depth, NULL);
		break;
	case N_DECLARATOR:
		dump_list(out, n->list, depth, "dim");
		if (n->a)
			dump(out, n->a, depth, "width");
		if (n->b)
			dump(out, n->b, depth, "init");
		dump_list(out, n->c, depth, "param");
		dump_list(out, n->d, depth, "xlate");
		break;
	case N_TRANSLATOR:
		dump(out, n->a, depth, "out");
		dump(out, n->b, depth, "in");
		dump_list(out, n->list, depth, NULL);
		break;
	case N_CALL:
		if (n->a)
			dump(out, n->a, depth, "callee");
		dump_list(out, n->list, depth, NULL);
		break;
	case N_INDEX:
		dump(out, n->a, depth, NULL);
		dump_list(out, n->list, depth, "key");
		break;
	case N_DECL:
		dump(out, n->a, depth, NULL);
		dump_list(out, n->list, depth, NULL);
		break;
	default:
		/* Expressions and the rest: list first (members, keys), then a..d. */
		if (n->kind == N_AGG)
			dump_list(out, n->list, depth, "key");
		else
			dump_list(out, n->list, depth, NULL);
		if (n->a)
			dump(out, n->a, depth, NULL);
		if (n->b)
			dump(out, n->b, depth, NULL);
		if (n->c)
			dump(out, n->c, depth, NULL);
		if (n->d)
			dump(out, n->d, depth, NULL);
		break;
	}
}

void ast_dump(FILE *out, const struct node *n)
{
	if (n)
		dump(out, n, 0, NULL);
}
