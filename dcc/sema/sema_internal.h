/* Shared between sema.c (expressions, declarations) and sema_action.c. */
#ifndef DCC_SEMA_INTERNAL_H
#define DCC_SEMA_INTERNAL_H

#include "sema.h"
#include "builtin.h"

/* The nodes inline and translator expansions may copy in one compile: far
 * more than real scripts use (an inline is copied at each use), far fewer
 * than an inline that uses the one before twice, 30 deep, would make. */
#define SEMA_MAX_CLONED 50000
/* Inlines expanded inside inlines, at most (sema.h's inline_names[]). */
#define SEMA_MAX_INLINE_DEPTH 17
#define SEMA_MAX_INLINE_PARAMS 16 /* an inline's parameters, as DTrace's tuples */
/* The depth sema_expr may recurse to: the parser refuses a tree deeper than
 * 1000 levels, but inlines expanded in inlines nest further. */
#define SEMA_MAX_EXPR_DEPTH 2000
/* A program over one of these limits at loc: the message once (but not lost
 * to a muted trial pass); returns -1. */
int sema_limit(struct sema *s, struct loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

int sema_expr(struct sema *s, struct node *n);
int sema_clause(struct sema *s, struct clause_info *ci);
int sema_call_value(struct sema *s, struct node *n);
int sema_agg_assign(struct sema *s, struct node *n);
struct agg *sema_agg_find(struct sema *s, const char *name);
int sema_const(struct sema *s, struct node *n, int64_t *v);
/* the value of a constant integer expression, without a message when it is not one */
bool sema_const_try(struct node *n, int64_t *v);
int sema_agg_params(struct sema *s, int func, struct node *call, int64_t p[4]);
int sema_typename(struct sema *s, struct node *tn, struct type **out);
int sema_member(struct sema *s, struct node *n);
/* st's member name, through anonymous members: the steps in mp */
bool sema_find_member(struct sema *s, struct type *st, const char *name,
		      struct member_path *mp);
/* a checked member access that names a bit-field */
bool sema_is_bitfield(const struct node *n);
int sema_offsetof(struct sema *s, struct node *n);
/* sema_mk.c: the nodes of a rewrite; sema_become() puts x in n's place and checks it */
struct node *sema_mk_int(struct sema *s, struct loc loc, uint64_t v);
struct node *sema_mk_member(struct sema *s, struct node *a, const char *name, int op);
struct node *sema_mk_binop(struct sema *s, int op, struct node *a, struct node *b);
struct node *sema_mk_assign(struct sema *s, int op, struct node *lv, struct node *v);
struct node *sema_mk_cast(struct sema *s, struct node *a, struct type *t);
int sema_become(struct sema *s, struct node *n, struct node *x);
/* sema_store.c: *p = v, p->m = v, p[i] = v, and ++/-- through a pointer */
int sema_step_store(struct sema *s, struct node *n);
bool sema_is_pointer_store(struct sema *s, struct node *lv);
int sema_store(struct sema *s, struct node *n);
/* a typed node's SCR_* bits, from its operands' */
void sema_scratch_mark(struct sema *s, struct node *n);
/* v = x: whether v holds alloca() memory, the same at every assignment */
int sema_scratch_var(struct sema *s, struct node *n);
void sema_coerce_string(struct sema *s, struct node *n);
void sema_coerce_text(struct sema *s, struct node *n);
void sema_coerce_key(struct sema *s, struct node *n);
int sema_pointer_arith(struct sema *s, struct node *n, struct type *a, struct type *b);
bool sema_text_operands(struct sema *s, struct node *n);
int sema_stringof(struct sema *s, struct node *n);
/* sema_zero.c: the constant 0 where a string goes becomes the NULL string;
 * stored to a struct thread-local or array element, it deletes it */
bool sema_null_string(struct sema *s, struct node *n);
void sema_null_compare(struct sema *s, struct node *n);
bool sema_zero_deletes(struct node *lv, struct type *vt, struct node *val);
/* printf()'s format check, for the actions that take printf's arguments */
int sema_format(struct sema *s, struct node *call, struct node *fmt, struct node *args);
/* sema_destr.c: tracemem() and the destructive actions */
int sema_destr_action(struct sema *s, struct node *n);
/* sema_print.c: print(x) */
int sema_print(struct sema *s, struct node *n);
struct sema_btf *sema_btf(struct sema *s, struct loc loc);
int sema_tspec(struct sema *s, struct node *ts, struct type **out);
int sema_declarator_type(struct sema *s, struct type *base, struct node *d, struct type **out);
int sema_define(struct sema *s, struct node *d);
int sema_expand_name(struct sema *s, struct node *n);
bool sema_is_param_inline(struct sema *s, struct node *n);
int sema_inline_index(struct sema *s, struct node *n);
int sema_xlate(struct sema *s, struct node *n);
int sema_xlate_assign(struct sema *s, struct node *n, const struct type *vt); /* v = xlate<S>(e) */
/* A checked clause uses translated values only through their members. */
int sema_xlate_uses(struct sema *s, struct node *clause);
int sema_translated_member(struct sema *s, struct node *n);
void sema_retype_int(struct sema *s, struct node *n, struct type *t);
int sema_kernel_tag(struct sema *s, struct node *ts, struct type **out);
struct type *sema_user_tag(struct sema *s, int tspec_kind, const char *tag);
struct type *sema_user_typedef(struct sema *s, const char *name);
/* "extern T name;": a kernel variable the script gave a type (NULL: none) */
int sema_extern_decl(struct sema *s, struct node *d);
struct type *sema_extern_type(struct sema *s, const char *name);
int sema_extern_use(struct sema *s, struct node *n);
/* n becomes `with` in place (keeping its list link and location); 0 */
int sema_unwrap(struct node *n, struct node *with);
/* A char array a translator made a string is the array again where it is
 * indexed; returns a's type. */
struct type *sema_unstring(struct node *a);
int sema_args_type(struct sema *s, struct node *n, int64_t i, struct type **out);
/* sema_io.c: the io provider's events and args[] (1 when not an io clause) */
const char *sema_io_event(int i, const char **name);
int sema_io_refused(struct sema *s, struct node *d, const char *name);
int sema_sched_refused(struct sema *s, struct node *d, const char *name);
/* proc probes no tracepoint marks (start, lwp-start, signal-clear): an error naming why */
int sema_proc_refused(struct sema *s, struct node *d, const char *name);
int sema_net_refused(struct sema *s, struct node *d, const char *prov, const char *name);
const char *sema_inline_typename(struct sema *s, const char *name);
int sema_lockstat_refused(struct sema *s, struct node *d, const char *name);
/* cpc:::EVENT-MODE-COUNT: its event (abi_cpc.h's name), DCC_ATTACH_F_NO*
 * flags and count, or -1 and a diagnostic */
int sema_cpc_parse(struct sema *s, struct node *d, const char *name, const char **event,
		   uint32_t *flags, uint64_t *count);
/* sema_pid.c: is prov the pid provider's (pid$target, pidNNN, or a glob of
 * pid); its process (0: $target) after checking the description */
bool sema_pid_provider(const char *prov);
int sema_pid_check(struct sema *s, struct node *d, uint32_t *pid);
/* Is the description's name a hexadecimal offset into the function? 1 and
 * *off its name ("1c", as the probe is named), 0 when not (entry, return, a
 * glob over them), -1 after an error (a glob that could match offsets). */
int sema_pid_offset(struct sema *s, struct node *d, const char **off);
/* sema_usdt.c: is prov a USDT provider's (PROV$target, PROVNNN, or, when
 * nothing_else matched, PROV*); *pid its process (0: $target). Then the
 * description's checks: 0, 1 when dcc -l listed it (no probe to add), or
 * -1 after a diagnostic. */
int sema_usdt_form(const char *prov, bool nothing_else, uint32_t *pid);
int sema_usdt_check(struct sema *s, struct node *d, uint32_t pid);
int sema_io_args(struct sema *s, struct node *n, int64_t i);
/* sema_proc.c: args[] of proc probes (1 if the clause has none), their filters */
int sema_proc_args(struct sema *s, struct node *n, int64_t i);
bool sema_is_var_elem(struct sema *s, struct node *n);
int sema_uregs(struct sema *s, struct node *n, const struct builtin *bi);
int sema_proc_preds(struct sema *s, struct clause_info *ci);
struct var *sema_var_find(struct sema *s, enum var_kind kind, const char *name);
bool sema_float_same(const struct type *a, const struct type *b);
int sema_float_binop(struct sema *s, struct node *n, const char *op, struct type *a,
		     struct type *b);
int sema_float_unop(struct sema *s, struct node *n, struct type *operand);
int sema_float_cast(struct sema *s, struct node *n, struct type *from, struct type *to);
/* sema_subr.c: alloca, bcopy, byte order, rand, progenyof, inet_ntoa... */
int sema_subr_scratch(struct sema *s, struct node *n);
int sema_subr_int(struct sema *s, struct node *n);
int sema_subr_inet(struct sema *s, struct node *n);
/* A checked clause: bcopy() and copyinto() copy no more than alloca() and
 * copyin() took before them. 0, or -1 after reporting. */
int sema_scratch_room(struct sema *s, struct node *clause);
/* Options read by checks (sema_option.c): maxframes (1 to 127) and
 * scratchsize (0 when unset). */
unsigned sema_maxframes(const struct sema *s);
uint64_t sema_opt_value(const struct sema *s, const char *name);
uint64_t sema_scratchsize(const struct sema *s);
/* inet_ntoa()... values: not strings, but printf's %s and printa's %s print them */
bool sema_subr_text(const struct type *t);

/* One printf conversion, as sema checks it and codegen records it. */
enum conv_class { CONV_INT = 1, CONV_STRING, CONV_CHAR, CONV_PERCENT };

/* sema_string.c: strlen(), strjoin(), substr(), index()... */
int sema_string_call(struct sema *s, struct node *n);
/* (string)p: the string at kernel address p, as stringof((char *)p) */
int sema_cast_to_string(struct sema *s, struct node *n);
int sema_strtok(struct sema *s, struct node *n);
/* sema_action.c: the actions' checks, and the value subroutines' there */
int sema_printf(struct sema *s, struct node *n);
int sema_trace(struct sema *s, struct node *n);
int sema_printa(struct sema *s, struct node *n);
int sema_agg_action(struct sema *s, struct node *n);
int sema_setopt(struct sema *s, struct node *n);
int sema_spec_action(struct sema *s, struct node *n);
int sema_copyin(struct sema *s, struct node *n);
int sema_copyinstr(struct sema *s, struct node *n);
int sema_speculation(struct sema *s, struct node *n);
int sema_stack(struct sema *s, struct node *n);
int sema_sym(struct sema *s, struct node *n);
/* sema.c: curthread */
int sema_curthread(struct sema *s, struct node *n);
int sema_curcpu(struct sema *s, struct node *n);
/* sema_type.c: c ? a : b */
int sema_cond(struct sema *s, struct node *n);
/* sema_macro.c: $target, $pid..., $N and $$N */
int sema_macro(struct sema *s, struct node *n);
/* a probe description's $N replaced by the arguments' text, as DTrace does */
int sema_macro_desc(struct sema *s, struct node *d);
/* After the whole script: the last macro argument unreferenced is an error
 * unless -x argref. 0, or -1 after reporting. */
int sema_macro_unused(struct sema *s);

/* sema_pragma.c: "#pragma D depends_on", checked against this system */
int sema_pragma_depends(struct sema *s, struct node *d);
int sema_pragma_attributes(struct sema *s, struct node *d);
/* sema_vardecl.c: the types an associative array's keys may have */
#define SEMA_KEY_STRUCT_MAX 256
bool sema_key_type(const struct type *t);
bool sema_keys_match(const struct type *had, const struct type *key);
int sema_step_type(struct sema *s, struct node *n, struct type *vt);
/* sema_probe.c: a provider dcc matches probes of */
bool sema_provider_known(const char *name);
/* the type of an integer literal: int, or wider when its value needs it */
struct type *sema_int_literal_type(struct node *n);
int sema_stackvar(struct sema *s, struct node *n);
int sema_vtimestamp(struct sema *s, struct node *n);
int sema_ipl(struct sema *s, struct node *n);
int sema_execargs(struct sema *s, struct node *n); /* a read of the process's memory */
int sema_d_path(struct sema *s, struct node *n); /* sema_path.c: d_path() */
int sema_cwd(struct sema *s, struct node *n);    /* cwd and root, as d_path() calls */
int sema_lock(struct sema *s, struct node *n); /* mutex_owned() ... rw_iswriter() */
/* "f() takes N arguments, M given" unless the row's arity holds: 0 or -1 */
int sema_builtin_arity(struct sema *s, struct node *n);
/* sema_vardecl.c: int x; self string s; uint64_t last[int]; */
int sema_var_decl(struct sema *s, struct node *d);
struct var *sema_var_add(struct sema *s, enum var_kind kind, const char *name, struct type *t,
			 struct loc loc);

bool sema_str_copy(const struct node *n);
struct node *sema_array_value(struct sema *s, struct type *vt, struct node *x, bool in_memory);
struct node *sema_string_value(struct sema *s, struct type *vt, struct node *x);
bool sema_is_string_offset(const struct type *a, const struct type *b);
int sema_string_offset(struct sema *s, struct node *n);

#endif
