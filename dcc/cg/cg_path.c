/*
 * basename(), dirname() and cleanpath() -> IR: one bpf_loop() pass over
 * the path's bytes each, with DTrace's results (its "." and "/" cases, and
 * cleanpath()'s way of taking "/.." back to dest's last slash).
 */
#include "cg_string.h"

/* basename(s), dirname(s) as DTrace cuts them: "" is ".", all slashes is
 * "/", a name without a slash has the dirname ".", and one right after a
 * leading slash the dirname "/". One pass notes the last non-slash byte,
 * where the last name starts, whether a slash comes before it, and the
 * last non-slash byte before that slash. */
struct cval cg_path_part(struct cg *cg, struct cval s, bool dir)
{
	unsigned cap = str_cap(cg, s);
	LLVMValueRef zero = str_k64(cg, 0), none = str_k64(cg, (uint64_t)-1);
	LLVMValueRef len = str_len(cg, s);
	LLVMValueRef lnon = str_slot(cg, none), start = str_slot(cg, zero);
	LLVMValueRef slash = str_slot(cg, zero);
	LLVMValueRef dlast = str_slot(cg, none);
	struct str_body bd;
	/* v[5]: whether the byte before is a slash, or the start */
	LLVMValueRef vals[6] = { s.v, lnon, start, slash, dlast, str_slot(cg, str_k64(cg, 1)) };
	str_body_begin(cg, &bd, cap, vals, 6);
	LLVMValueRef i = bd.i, sv = bd.v[0];
	LLVMValueRef b = str_byte_at(cg, sv, i), isl = str_eq(cg, b, str_k64(cg, '/'));
	LLVMValueRef after = str_sload(cg, bd.v[5]);
	str_sstore(cg, bd.v[5], LLVMBuildZExt(cg->b, isl, cg->i64, ""));
	LLVMBasicBlockRef j1 = str_begin_if(cg,
			str_and1(cg, LLVMBuildICmp(cg->b, LLVMIntNE, b, zero, ""),
						 LLVMBuildNot(cg->b, isl, "")));
	LLVMValueRef notfirst = LLVMBuildICmp(cg->b, LLVMIntNE, i, zero, "");
	LLVMValueRef fresh = LLVMBuildICmp(cg->b, LLVMIntNE, after, zero, "");
	LLVMBasicBlockRef j2 = str_begin_if(cg, fresh);
	str_sstore(cg, bd.v[4], str_sload(cg, bd.v[1]));
	str_sstore(cg, bd.v[3], LLVMBuildZExt(cg->b, notfirst, cg->i64, ""));
	str_sstore(cg, bd.v[2], i);
	str_end_if(cg, j2);
	str_sstore(cg, bd.v[1], i);
	str_end_if(cg, j1);
	str_body_end(cg, &bd);
	/* the byte to return alone ('.' or '/'), or 0 and the range [from, to] */
	LLVMValueRef hasname = LLVMBuildICmp(cg->b, LLVMIntNE, str_sload(cg, lnon), none, "");
	LLVMValueRef hasslash = LLVMBuildICmp(cg->b, LLVMIntNE, str_sload(cg, slash), zero, "");
	LLVMValueRef from = zero, to, ch;
	ch = str_sel(cg, str_eq(cg, len, zero), str_k64(cg, '.'),
		     str_sel(cg, hasname, zero, str_k64(cg, '/')));
	if (dir) {
		LLVMValueRef bare = str_and1(cg, hasname, LLVMBuildNot(cg->b, hasslash, ""));
		ch = str_sel(cg, bare, str_k64(cg, '.'), ch);
		to = str_sload(cg, dlast);
		to = str_sel(cg, str_eq(cg, to, none), zero, to);
	} else {
		from = str_sload(cg, start);
		to = str_sload(cg, lnon);
	}
	LLVMValueRef d = str_result(cg, 8);
	LLVMValueRef alone = LLVMBuildICmp(cg->b, LLVMIntNE, ch, zero, "");
	LLVMBasicBlockRef other = cg_block(cg, "path.range"), join = cg_block(cg, "path.done");
	LLVMBasicBlockRef one_b = cg_block(cg, "path.byte");
	LLVMBuildCondBr(cg->b, alone, one_b, other);
	LLVMPositionBuilderAtEnd(cg->b, one_b);
	str_put_byte(cg, d, zero, ch);
	LLVMBuildBr(cg->b, join);
	LLVMPositionBuilderAtEnd(cg->b, other);
	unsigned max = cap - 1;
	LLVMValueRef n = str_bounded(cg, LLVMBuildSub(cg->b, to, from, ""), max);
	LLVMValueRef src = str_at(cg, s.v, str_bounded(cg, from, max));
	str_read(cg, d, LLVMBuildAdd(cg->b, n, str_k64(cg, 2), ""), src);
	LLVMBuildBr(cg->b, join);
	LLVMPositionBuilderAtEnd(cg->b, join);
	return str_val(d, cg);
}

/* cleanpath(s) as DTrace cleans it: "//" and "/./" are one slash, "/.."
 * takes dest back to its last slash (or its start), and the result stops
 * short of strsize - 5. One byte at a time: state 0 after any other byte,
 * 1 after "/", 2 after "/.", 3 after "/.."; the slashes written to dest
 * are a stack of their positions, which "/.." pops. */
enum { CP_S, CP_D, CP_STK, CP_ST, CP_J, CP_SP, CP_END, CP_DONE };

static void cp_stop(struct cg *cg, LLVMValueRef *v, LLVMValueRef end)
{
	str_sstore(cg, v[CP_END], end);
	str_sstore(cg, v[CP_DONE], str_k64(cg, 1));
}

/* "/" then more bytes of text at dest[j..]; a NUL among them ends it */
static void cp_write(struct cg *cg, LLVMValueRef *v, LLVMValueRef j, const char *text,
		     LLVMValueRef c, unsigned mask)
{
	LLVMValueRef sp = str_sload(cg, v[CP_SP]);
	LLVMValueRef e = LLVMBuildMul(cg->b, str_and1(cg, sp, str_k64(cg, mask / 2)),
				      str_k64(cg, 2), "");
	LLVMBuildStore(cg->b, LLVMBuildTrunc(cg->b, j, LLVMInt16TypeInContext(cg->C), ""),
		       str_at(cg, v[CP_STK], e));
	str_sstore(cg, v[CP_SP], LLVMBuildAdd(cg->b, sp, str_k64(cg, 1), ""));
	LLVMValueRef d = str_at(cg, v[CP_D], str_and1(cg, j, str_k64(cg, mask)));
	unsigned n = (unsigned)strlen(text);
	for (unsigned k = 0; k < n; k++)
		str_put_byte(cg, d, str_k64(cg, k), str_k64(cg, (unsigned char)text[k]));
	str_put_byte(cg, d, str_k64(cg, n), c);
	LLVMValueRef nj = LLVMBuildAdd(cg->b, j, str_k64(cg, n + 1), "");
	str_sstore(cg, v[CP_J], nj);
	str_sstore(cg, v[CP_ST], str_k64(cg, 0));
	LLVMBasicBlockRef jn = str_begin_if(cg, str_eq(cg, c, str_k64(cg, 0)));
	cp_stop(cg, v, LLVMBuildSub(cg->b, nj, str_k64(cg, 1), ""));
	str_end_if(cg, jn);
}

/* a slash where a component may start: state 1, room allowing */
static void cp_slash(struct cg *cg, LLVMValueRef *v, LLVMValueRef j, unsigned size)
{
	LLVMValueRef full = LLVMBuildICmp(cg->b, LLVMIntUGE,
					  LLVMBuildAdd(cg->b, j, str_k64(cg, 5), ""),
					  str_k64(cg, size), "");
	LLVMBasicBlockRef jf = str_begin_if(cg, full);
	cp_stop(cg, v, j);
	str_end_if(cg, jf);
	str_sstore(cg, v[CP_ST], str_k64(cg, 1));
}

struct cval cg_cleanpath(struct cg *cg, struct cval s)
{
	unsigned size = cg->strmax, pw = 8; /* strsize, as DTrace counts it */
	while (pw < size)
		pw *= 2;
	LLVMValueRef zero = str_k64(cg, 0), d = str_result(cg, 0);
	LLVMValueRef vals[8] = { s.v, str_scratch(cg, pw + 8), str_scratch(cg, pw),
				 str_slot(cg, zero), str_slot(cg, zero), str_slot(cg, zero),
				 str_slot(cg, zero), str_slot(cg, zero) };
	struct str_body b;
	str_body_begin(cg, &b, str_cap(cg, s), vals, 8);
	LLVMValueRef *v = b.v, slash = str_k64(cg, '/'), dot = str_k64(cg, '.');
	LLVMBasicBlockRef out = cg_block(cg, "cp.out");
	LLVMBasicBlockRef st[4] = { cg_block(cg, "cp.0"), cg_block(cg, "cp.1"),
				    cg_block(cg, "cp.2"), cg_block(cg, "cp.3") };
	LLVMValueRef c = str_byte_at(cg, v[CP_S], b.i), j = str_sload(cg, v[CP_J]);
	LLVMBasicBlockRef run = cg_block(cg, "cp.run");
	LLVMBuildCondBr(cg->b, str_eq(cg, str_sload(cg, v[CP_DONE]), zero), run, out);
	LLVMPositionBuilderAtEnd(cg->b, run);
	LLVMValueRef sw = LLVMBuildSwitch(cg->b, str_sload(cg, v[CP_ST]), st[0], 3);
	for (unsigned k = 1; k < 4; k++)
		LLVMAddCase(sw, str_k64(cg, k), st[k]);
	/* 0: the byte itself, or a slash */
	LLVMPositionBuilderAtEnd(cg->b, st[0]);
	LLVMBasicBlockRef other = cg_block(cg, "cp.other"), room = cg_block(cg, "cp.room");
	LLVMBuildCondBr(cg->b, str_eq(cg, c, slash), other, room);
	LLVMPositionBuilderAtEnd(cg->b, other);
	cp_slash(cg, v, j, size);
	LLVMBuildBr(cg->b, out);
	LLVMPositionBuilderAtEnd(cg->b, room);
	LLVMValueRef full = LLVMBuildICmp(cg->b, LLVMIntUGE,
					  LLVMBuildAdd(cg->b, j, str_k64(cg, 5), ""),
					  str_k64(cg, size), "");
	LLVMBasicBlockRef jf = str_begin_if(cg, full);
	cp_stop(cg, v, j);
	LLVMBuildBr(cg->b, out);
	LLVMPositionBuilderAtEnd(cg->b, jf);
	str_put_byte(cg, v[CP_D], str_and1(cg, j, str_k64(cg, pw - 1)), c);
	str_sstore(cg, v[CP_J], LLVMBuildAdd(cg->b, j, str_k64(cg, 1), ""));
	LLVMBasicBlockRef jn = str_begin_if(cg, str_eq(cg, c, zero));
	cp_stop(cg, v, j);
	str_end_if(cg, jn);
	LLVMBuildBr(cg->b, out);
	/* 1 and 2: after "/" and "/.": a slash again is one slash */
	for (unsigned k = 1; k < 3; k++) {
		LLVMPositionBuilderAtEnd(cg->b, st[k]);
		LLVMBasicBlockRef sl = cg_block(cg, "cp.sl"), nsl = cg_block(cg, "cp.nsl");
		LLVMBasicBlockRef dt = cg_block(cg, "cp.dot"), txt = cg_block(cg, "cp.txt");
		LLVMBuildCondBr(cg->b, str_eq(cg, c, slash), sl, nsl);
		LLVMPositionBuilderAtEnd(cg->b, sl);
		cp_slash(cg, v, j, size);
		LLVMBuildBr(cg->b, out);
		LLVMPositionBuilderAtEnd(cg->b, nsl);
		LLVMBuildCondBr(cg->b, str_eq(cg, c, dot), dt, txt);
		LLVMPositionBuilderAtEnd(cg->b, dt);
		str_sstore(cg, v[CP_ST], str_k64(cg, k + 1));
		LLVMBuildBr(cg->b, out);
		LLVMPositionBuilderAtEnd(cg->b, txt);
		cp_write(cg, v, j, k == 1 ? "/" : "/.", c, pw - 1);
		LLVMBuildBr(cg->b, out);
	}
	/* 3: after "/..": "/..x" is text; "/../" and "/..\0" go back */
	LLVMPositionBuilderAtEnd(cg->b, st[3]);
	LLVMBasicBlockRef txt = cg_block(cg, "cp.txt"), back = cg_block(cg, "cp.back");
	LLVMBuildCondBr(cg->b, str_and1(cg, LLVMBuildICmp(cg->b, LLVMIntNE, c, slash, ""),
					LLVMBuildICmp(cg->b, LLVMIntNE, c, zero, "")), txt, back);
	LLVMPositionBuilderAtEnd(cg->b, txt);
	cp_write(cg, v, j, "/..", c, pw - 1);
	LLVMBuildBr(cg->b, out);
	LLVMPositionBuilderAtEnd(cg->b, back);
	LLVMValueRef sp = str_sload(cg, v[CP_SP]);
	LLVMValueRef has = LLVMBuildICmp(cg->b, LLVMIntNE, sp, zero, "");
	LLVMValueRef nsp = LLVMBuildSub(cg->b, sp, LLVMBuildZExt(cg->b, has, cg->i64, ""), "");
	LLVMValueRef e = LLVMBuildMul(cg->b, str_and1(cg, nsp, str_k64(cg, (pw - 1) / 2)),
				      str_k64(cg, 2), "");
	LLVMValueRef top = LLVMBuildZExt(cg->b, LLVMBuildLoad2(cg->b,
		LLVMInt16TypeInContext(cg->C), str_at(cg, v[CP_STK], e), ""), cg->i64, "");
	LLVMValueRef nj = str_sel(cg, has, top, zero);
	str_sstore(cg, v[CP_SP], nsp);
	str_sstore(cg, v[CP_J], nj);
	LLVMBasicBlockRef end0 = cg_block(cg, "cp.end0"), again = cg_block(cg, "cp.again");
	LLVMBuildCondBr(cg->b, str_eq(cg, c, zero), end0, again);
	LLVMPositionBuilderAtEnd(cg->b, end0);
	cp_stop(cg, v, LLVMBuildAdd(cg->b, nj, str_k64(cg, 1), ""));
	LLVMBuildBr(cg->b, out);
	LLVMPositionBuilderAtEnd(cg->b, again);
	cp_slash(cg, v, nj, size);
	LLVMBuildBr(cg->b, out);
	LLVMPositionBuilderAtEnd(cg->b, out);
	str_body_end(cg, &b);
	LLVMValueRef end = str_bounded(cg, str_sload(cg, vals[CP_END]), pw - 1);
	str_put_byte(cg, vals[CP_D], end, zero);
	str_read(cg, d, str_k64(cg, size), vals[CP_D]);
	return str_val(d, cg);
}
