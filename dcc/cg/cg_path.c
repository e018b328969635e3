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
	LLVMValueRef zero = k64(cg, 0), none = k64(cg, (uint64_t)-1);
	LLVMValueRef len = str_len(cg, s);
	LLVMValueRef lnon = slot(cg, none), start = slot(cg, zero), slash = slot(cg, zero);
	LLVMValueRef dlast = slot(cg, none);
	struct body bd;
	/* v[5]: whether the byte before is a slash, or the start */
	LLVMValueRef vals[6] = { s.v, lnon, start, slash, dlast, slot(cg, k64(cg, 1)) };
	body_begin(cg, &bd, cap, vals, 6);
	LLVMValueRef i = bd.i, sv = bd.v[0];
	LLVMValueRef b = byte_at(cg, sv, i), isl = eq(cg, b, k64(cg, '/'));
	LLVMValueRef after = sload(cg, bd.v[5]);
	sstore(cg, bd.v[5], LLVMBuildZExt(cg->b, isl, cg->i64, ""));
	LLVMBasicBlockRef j1 = begin_if(cg, and1(cg, LLVMBuildICmp(cg->b, LLVMIntNE, b, zero, ""),
						 LLVMBuildNot(cg->b, isl, "")));
	LLVMValueRef notfirst = LLVMBuildICmp(cg->b, LLVMIntNE, i, zero, "");
	LLVMValueRef fresh = LLVMBuildICmp(cg->b, LLVMIntNE, after, zero, "");
	LLVMBasicBlockRef j2 = begin_if(cg, fresh);
	sstore(cg, bd.v[4], sload(cg, bd.v[1]));
	sstore(cg, bd.v[3], LLVMBuildZExt(cg->b, notfirst, cg->i64, ""));
	sstore(cg, bd.v[2], i);
	end_if(cg, j2);
	sstore(cg, bd.v[1], i);
	end_if(cg, j1);
	body_end(cg, &bd);
	/* the byte to return alone ('.' or '/'), or 0 and the range [from, to] */
	LLVMValueRef hasname = LLVMBuildICmp(cg->b, LLVMIntNE, sload(cg, lnon), none, "");
	LLVMValueRef hasslash = LLVMBuildICmp(cg->b, LLVMIntNE, sload(cg, slash), zero, "");
	LLVMValueRef from = zero, to, ch;
	ch = sel(cg, eq(cg, len, zero), k64(cg, '.'), sel(cg, hasname, zero, k64(cg, '/')));
	if (dir) {
		LLVMValueRef bare = and1(cg, hasname, LLVMBuildNot(cg->b, hasslash, ""));
		ch = sel(cg, bare, k64(cg, '.'), ch);
		to = sload(cg, dlast);
		to = sel(cg, eq(cg, to, none), zero, to);
	} else {
		from = sload(cg, start);
		to = sload(cg, lnon);
	}
	LLVMValueRef d = result(cg, 8);
	LLVMValueRef alone = LLVMBuildICmp(cg->b, LLVMIntNE, ch, zero, "");
	LLVMBasicBlockRef other = cg_block(cg, "path.range"), join = cg_block(cg, "path.done");
	LLVMBasicBlockRef one_b = cg_block(cg, "path.byte");
	LLVMBuildCondBr(cg->b, alone, one_b, other);
	LLVMPositionBuilderAtEnd(cg->b, one_b);
	put_byte(cg, d, zero, ch);
	LLVMBuildBr(cg->b, join);
	LLVMPositionBuilderAtEnd(cg->b, other);
	unsigned max = cap - 1;
	LLVMValueRef n = bounded(cg, LLVMBuildSub(cg->b, to, from, ""), max);
	LLVMValueRef src = at(cg, s.v, bounded(cg, from, max));
	read_str(cg, d, LLVMBuildAdd(cg->b, n, k64(cg, 2), ""), src);
	LLVMBuildBr(cg->b, join);
	LLVMPositionBuilderAtEnd(cg->b, join);
	return strval(d, cg);
}

/* cleanpath(s) as DTrace cleans it: "//" and "/./" are one slash, "/.."
 * takes dest back to its last slash (or its start), and the result stops
 * short of strsize - 5. One byte at a time: state 0 after any other byte,
 * 1 after "/", 2 after "/.", 3 after "/.."; the slashes written to dest
 * are a stack of their positions, which "/.." pops. */
enum { CP_S, CP_D, CP_STK, CP_ST, CP_J, CP_SP, CP_END, CP_DONE };

static void cp_stop(struct cg *cg, LLVMValueRef *v, LLVMValueRef end)
{
	sstore(cg, v[CP_END], end);
	sstore(cg, v[CP_DONE], k64(cg, 1));
}

/* "/" then more bytes of text at dest[j..]; a NUL among them ends it */
static void cp_write(struct cg *cg, LLVMValueRef *v, LLVMValueRef j, const char *text,
		     LLVMValueRef c, unsigned mask)
{
	LLVMValueRef sp = sload(cg, v[CP_SP]);
	LLVMValueRef e = LLVMBuildMul(cg->b, and1(cg, sp, k64(cg, mask / 2)), k64(cg, 2), "");
	LLVMBuildStore(cg->b, LLVMBuildTrunc(cg->b, j, LLVMInt16TypeInContext(cg->C), ""),
		       at(cg, v[CP_STK], e));
	sstore(cg, v[CP_SP], LLVMBuildAdd(cg->b, sp, k64(cg, 1), ""));
	LLVMValueRef d = at(cg, v[CP_D], and1(cg, j, k64(cg, mask)));
	unsigned n = (unsigned)strlen(text);
	for (unsigned k = 0; k < n; k++)
		put_byte(cg, d, k64(cg, k), k64(cg, (unsigned char)text[k]));
	put_byte(cg, d, k64(cg, n), c);
	LLVMValueRef nj = LLVMBuildAdd(cg->b, j, k64(cg, n + 1), "");
	sstore(cg, v[CP_J], nj);
	sstore(cg, v[CP_ST], k64(cg, 0));
	LLVMBasicBlockRef jn = begin_if(cg, eq(cg, c, k64(cg, 0)));
	cp_stop(cg, v, LLVMBuildSub(cg->b, nj, k64(cg, 1), ""));
	end_if(cg, jn);
}

/* a slash where a component may start: state 1, room allowing */
static void cp_slash(struct cg *cg, LLVMValueRef *v, LLVMValueRef j, unsigned size)
{
	LLVMValueRef full = LLVMBuildICmp(cg->b, LLVMIntUGE, LLVMBuildAdd(cg->b, j, k64(cg, 5), ""),
					  k64(cg, size), "");
	LLVMBasicBlockRef jf = begin_if(cg, full);
	cp_stop(cg, v, j);
	end_if(cg, jf);
	sstore(cg, v[CP_ST], k64(cg, 1));
}

struct cval cg_cleanpath(struct cg *cg, struct cval s)
{
	unsigned size = cg->strsize, pw = 8;
	while (pw < size)
		pw *= 2;
	LLVMValueRef zero = k64(cg, 0), d = result(cg, 0);
	LLVMValueRef vals[8] = { s.v, scratch(cg, pw + 8), scratch(cg, pw), slot(cg, zero),
				 slot(cg, zero), slot(cg, zero), slot(cg, zero), slot(cg, zero) };
	struct body b;
	body_begin(cg, &b, str_cap(cg, s), vals, 8);
	LLVMValueRef *v = b.v, slash = k64(cg, '/'), dot = k64(cg, '.');
	LLVMBasicBlockRef out = cg_block(cg, "cp.out");
	LLVMBasicBlockRef st[4] = { cg_block(cg, "cp.0"), cg_block(cg, "cp.1"),
				    cg_block(cg, "cp.2"), cg_block(cg, "cp.3") };
	LLVMValueRef c = byte_at(cg, v[CP_S], b.i), j = sload(cg, v[CP_J]);
	LLVMBasicBlockRef run = cg_block(cg, "cp.run");
	LLVMBuildCondBr(cg->b, eq(cg, sload(cg, v[CP_DONE]), zero), run, out);
	LLVMPositionBuilderAtEnd(cg->b, run);
	LLVMValueRef sw = LLVMBuildSwitch(cg->b, sload(cg, v[CP_ST]), st[0], 3);
	for (unsigned k = 1; k < 4; k++)
		LLVMAddCase(sw, k64(cg, k), st[k]);
	/* 0: the byte itself, or a slash */
	LLVMPositionBuilderAtEnd(cg->b, st[0]);
	LLVMBasicBlockRef other = cg_block(cg, "cp.other"), room = cg_block(cg, "cp.room");
	LLVMBuildCondBr(cg->b, eq(cg, c, slash), other, room);
	LLVMPositionBuilderAtEnd(cg->b, other);
	cp_slash(cg, v, j, size);
	LLVMBuildBr(cg->b, out);
	LLVMPositionBuilderAtEnd(cg->b, room);
	LLVMValueRef full = LLVMBuildICmp(cg->b, LLVMIntUGE, LLVMBuildAdd(cg->b, j, k64(cg, 5), ""),
					  k64(cg, size), "");
	LLVMBasicBlockRef jf = begin_if(cg, full);
	cp_stop(cg, v, j);
	LLVMBuildBr(cg->b, out);
	LLVMPositionBuilderAtEnd(cg->b, jf);
	put_byte(cg, v[CP_D], and1(cg, j, k64(cg, pw - 1)), c);
	sstore(cg, v[CP_J], LLVMBuildAdd(cg->b, j, k64(cg, 1), ""));
	LLVMBasicBlockRef jn = begin_if(cg, eq(cg, c, zero));
	cp_stop(cg, v, j);
	end_if(cg, jn);
	LLVMBuildBr(cg->b, out);
	/* 1 and 2: after "/" and "/.": a slash again is one slash */
	for (unsigned k = 1; k < 3; k++) {
		LLVMPositionBuilderAtEnd(cg->b, st[k]);
		LLVMBasicBlockRef sl = cg_block(cg, "cp.sl"), nsl = cg_block(cg, "cp.nsl");
		LLVMBasicBlockRef dt = cg_block(cg, "cp.dot"), txt = cg_block(cg, "cp.txt");
		LLVMBuildCondBr(cg->b, eq(cg, c, slash), sl, nsl);
		LLVMPositionBuilderAtEnd(cg->b, sl);
		cp_slash(cg, v, j, size);
		LLVMBuildBr(cg->b, out);
		LLVMPositionBuilderAtEnd(cg->b, nsl);
		LLVMBuildCondBr(cg->b, eq(cg, c, dot), dt, txt);
		LLVMPositionBuilderAtEnd(cg->b, dt);
		sstore(cg, v[CP_ST], k64(cg, k + 1));
		LLVMBuildBr(cg->b, out);
		LLVMPositionBuilderAtEnd(cg->b, txt);
		cp_write(cg, v, j, k == 1 ? "/" : "/.", c, pw - 1);
		LLVMBuildBr(cg->b, out);
	}
	/* 3: after "/..": "/..x" is text; "/../" and "/..\0" go back */
	LLVMPositionBuilderAtEnd(cg->b, st[3]);
	LLVMBasicBlockRef txt = cg_block(cg, "cp.txt"), back = cg_block(cg, "cp.back");
	LLVMBuildCondBr(cg->b, and1(cg, LLVMBuildICmp(cg->b, LLVMIntNE, c, slash, ""),
				    LLVMBuildICmp(cg->b, LLVMIntNE, c, zero, "")), txt, back);
	LLVMPositionBuilderAtEnd(cg->b, txt);
	cp_write(cg, v, j, "/..", c, pw - 1);
	LLVMBuildBr(cg->b, out);
	LLVMPositionBuilderAtEnd(cg->b, back);
	LLVMValueRef sp = sload(cg, v[CP_SP]);
	LLVMValueRef has = LLVMBuildICmp(cg->b, LLVMIntNE, sp, zero, "");
	LLVMValueRef nsp = LLVMBuildSub(cg->b, sp, LLVMBuildZExt(cg->b, has, cg->i64, ""), "");
	LLVMValueRef e = LLVMBuildMul(cg->b, and1(cg, nsp, k64(cg, (pw - 1) / 2)), k64(cg, 2), "");
	LLVMValueRef top = LLVMBuildZExt(cg->b, LLVMBuildLoad2(cg->b,
		LLVMInt16TypeInContext(cg->C), at(cg, v[CP_STK], e), ""), cg->i64, "");
	LLVMValueRef nj = sel(cg, has, top, zero);
	sstore(cg, v[CP_SP], nsp);
	sstore(cg, v[CP_J], nj);
	LLVMBasicBlockRef end0 = cg_block(cg, "cp.end0"), again = cg_block(cg, "cp.again");
	LLVMBuildCondBr(cg->b, eq(cg, c, zero), end0, again);
	LLVMPositionBuilderAtEnd(cg->b, end0);
	cp_stop(cg, v, LLVMBuildAdd(cg->b, nj, k64(cg, 1), ""));
	LLVMBuildBr(cg->b, out);
	LLVMPositionBuilderAtEnd(cg->b, again);
	cp_slash(cg, v, nj, size);
	LLVMBuildBr(cg->b, out);
	LLVMPositionBuilderAtEnd(cg->b, out);
	body_end(cg, &b);
	LLVMValueRef end = bounded(cg, sload(cg, vals[CP_END]), pw - 1);
	put_byte(cg, vals[CP_D], end, zero);
	read_str(cg, d, k64(cg, size), vals[CP_D]);
	return strval(d, cg);
}
