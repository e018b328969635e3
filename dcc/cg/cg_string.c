/*
 * D's string subroutines -> IR: strlen(), strjoin(), substr(), index(),
 * rindex(), strstr(), strchr(), strrchr(), lltostr(), strtoll(), toupper(),
 * tolower() and the comparisons of strings here, basename(), dirname() and
 * cleanpath() in cg_path.c, with DTrace's results and faults.
 *
 * BPF has no string library. Lengths, and copies out of a string from a
 * computed offset, are bpf_probe_read_kernel_str() calls; a scan over a
 * string's bytes is a bpf_loop() callback, which the verifier checks once
 * rather than once per byte, keeping its state in scratch memory (a value
 * it doesn't track, so paths through the body never differ by it). Every
 * offset computed from data goes through scratch memory too and is masked
 * or clamped before it indexes anything. Results are NUL-padded strsize
 * buffers in the scratch map.
 */
#include "cg_string.h"

/* strjoin(a, b): DTrace for Linux cuts the joined string at strsize
 * characters, as any string is (illumos DTrace ran out of scratch space) */
static struct cval strjoin(struct cg *cg, struct cval a, struct cval b)
{
	unsigned size = cg->strsize;
	LLVMValueRef la = str_len(cg, a);
	LLVMValueRef d = str_result(cg, size);
	str_read(cg, d, str_k64(cg, str_cap(cg, a)), a.v);
	la = str_bounded(cg, la, size - 1);
	str_read(cg, str_at(cg, d, la), LLVMBuildSub(cg->b, str_k64(cg, size), la, ""), b.v);
	/* a strsize that isn't a multiple of 8 caps the result below the buffer */
	if (cg->strmax < size)
		str_put_byte(cg, d, str_k64(cg, cg->strmax), str_k64(cg, 0));
	return str_val(d, cg);
}

/* substr(s, index[, len]), with DTrace's arithmetic on the bounds */
static struct cval substr(struct cg *cg, struct cval s, LLVMValueRef index, LLVMValueRef rem)
{
	LLVMValueRef zero = str_k64(cg, 0), len = str_len(cg, s);
	if (!rem)
		rem = str_k64(cg, cg->strsize);
	/* a negative index counts from the end; what falls before the start
	 * shortens the length */
	LLVMValueRef neg = LLVMBuildICmp(cg->b, LLVMIntSLT, index, zero, "");
	index = str_sel(cg, neg, LLVMBuildAdd(cg->b, index, len, ""), index);
	LLVMValueRef before = str_and1(cg, neg, str_and1(cg,
		LLVMBuildICmp(cg->b, LLVMIntSLT, index, zero, ""),
		LLVMBuildICmp(cg->b, LLVMIntSGT, LLVMBuildAdd(cg->b, index, rem, ""), zero, "")));
	rem = str_sel(cg, before, LLVMBuildAdd(cg->b, rem, index, ""), rem);
	index = str_sel(cg, before, zero, index);
	/* then: nothing past the end; a negative length leaves that many
	 * off the end; never past strsize (the copy stops at the NUL) */
	LLVMValueRef out = LLVMBuildICmp(cg->b, LLVMIntUGE, index, len, "");
	LLVMValueRef left = LLVMBuildSub(cg->b, len, index, "");
	LLVMValueRef rneg = LLVMBuildICmp(cg->b, LLVMIntSLT, rem, zero, "");
	rem = str_sel(cg, rneg, LLVMBuildAdd(cg->b, rem, left, ""), rem);
	rem = str_sel(cg, LLVMBuildICmp(cg->b, LLVMIntSGT, rem, left, ""), left, rem);
	rem = str_sel(cg, out, zero, rem);
	LLVMValueRef d = str_result(cg, 0);
	rem = str_opaque(cg, rem);
	LLVMBasicBlockRef join = str_begin_if(cg, LLVMBuildICmp(cg->b, LLVMIntSGT, rem, zero, ""));
	unsigned max = str_cap(cg, s) - 1;
	index = str_bounded(cg, index, max);
	rem = str_bounded(cg, rem, max);
	str_read(cg, d, LLVMBuildAdd(cg->b, rem, str_k64(cg, 1), ""), str_at(cg, s.v, index));
	str_end_if(cg, join);
	return str_val(d, cg);
}

/* The NUL-padded words of t, and a mask of its bytes before the NUL. */
static void needle(struct cg *cg, struct cval t, unsigned words, LLVMValueRef *tw, LLVMValueRef *tm)
{
	*tw = str_scratch(cg, 8 * words);
	*tm = str_scratch(cg, 8 * words);
	cg_memop(cg, "llvm.memcpy", *tw, t.v, 8 * words);
	struct str_loop l;
	LLVMValueRef w = str_loop_begin(cg, &l, words);
	LLVMValueRef off = LLVMBuildMul(cg->b, w, str_k64(cg, 8), "");
	LLVMValueRef x = LLVMBuildLoad2(cg->b, cg->i64, str_at(cg, *tw, off), "");
	LLVMValueRef lo7 = str_k64(cg, 0x7f7f7f7f7f7f7f7full);
	LLVMValueRef hi = LLVMBuildOr(cg->b, LLVMBuildAdd(cg->b, str_and1(cg, x, lo7), lo7, ""), x,
				      "");
	hi = LLVMBuildLShr(cg->b, str_and1(cg, hi, str_k64(cg, 0x8080808080808080ull)),
			   str_k64(cg, 7), "");
	LLVMBuildStore(cg->b, LLVMBuildMul(cg->b, hi, str_k64(cg, 0xff), ""), str_at(cg, *tm, off));
	str_loop_end(cg, &l);
}

enum search { S_STRSTR, S_INDEX, S_RINDEX };

/* strstr(s, t), index(s, t[, pos]), rindex(s, t[, pos]): every position
 * i of s is tried, 8 bytes of t at a time against s's bytes i.. made of
 * two aligned words; the first match from lo and the last up to hi win.
 * strstr() finds nothing as the NULL string. */
static struct cval search(struct cg *cg, enum search kind, struct cval s, struct cval t,
			  LLVMValueRef pos)
{
	unsigned scap = str_cap(cg, s), tcap = str_cap(cg, t), words = (tcap + 7) / 8;
	LLVMValueRef zero = str_k64(cg, 0), none = str_k64(cg, (uint64_t)-1);
	LLVMValueRef len = str_len(cg, s), tlen = str_len(cg, t);
	LLVMValueRef tw, tm;
	needle(cg, t, words, &tw, &tm);
	/* s, zero-padded so that position scap - 1 can still read t's length */
	unsigned scopy = (scap + 7) / 8 * 8, sbytes = scopy + 8 * words + 8;
	LLVMValueRef sb = str_scratch(cg, sbytes);
	/* the copy, then zeros after it: a memset under a memcpy is one LLVM
	 * shortens and merges with the next, volatile or not, past what the
	 * BPF backend expands (gen seed 245: "a call to memset") */
	cg_memop(cg, "llvm.memcpy", sb, s.v, scopy);
	cg_memop(cg, "llvm.memset", str_at(cg, sb, str_k64(cg, scopy)), NULL, sbytes - scopy);
	LLVMValueRef lo = zero, hi = len;
	if (kind == S_INDEX && pos)
		lo = str_sel(cg, LLVMBuildICmp(cg->b, LLVMIntSLT, pos, zero, ""), zero, pos);
	if (kind == S_RINDEX && pos)
		hi = str_sel(cg, LLVMBuildICmp(cg->b, LLVMIntSGT, pos, len, ""), len, pos);
	/* the bounds are read again at each use: a comparison with the
	 * position then narrows a copy, never state the loop carries */
	LLVMValueRef lo_s = str_slot(cg, lo), hi_s = str_slot(cg, hi), len_s = str_slot(cg, len);
	LLVMValueRef first = str_slot(cg, none), last = str_slot(cg, none);
	struct str_body bd;
	struct str_loop lw;
	LLVMValueRef vals[8] = { sb, tw, tm, lo_s, hi_s, len_s, first, last };
	str_body_begin(cg, &bd, scap, vals, 8);
	LLVMValueRef i = bd.i;
	LLVMValueRef sh = LLVMBuildMul(cg->b, str_and1(cg, i, str_k64(cg, 7)), str_k64(cg, 8), "");
	LLVMValueRef base = str_and1(cg, i, str_k64(cg, ~7ull));
	LLVMValueRef diff = str_var(cg, zero);
	LLVMValueRef w = str_loop_begin(cg, &lw, words);
	LLVMValueRef off = LLVMBuildMul(cg->b, w, str_k64(cg, 8), "");
	LLVMValueRef p = str_at(cg, bd.v[0], LLVMBuildAdd(cg->b, base, off, ""));
	LLVMValueRef w0 = LLVMBuildLoad2(cg->b, cg->i64, p, "");
	LLVMValueRef w1 = LLVMBuildLoad2(cg->b, cg->i64, str_at(cg, p, str_k64(cg, 8)), "");
	/* (w1 << (64 - sh)) without a shift by 64 when sh is 0 */
	LLVMValueRef up = LLVMBuildShl(cg->b, LLVMBuildShl(cg->b, w1, str_k64(cg, 1), ""),
				       LLVMBuildSub(cg->b, str_k64(cg, 63), sh, ""), "");
	LLVMValueRef sw = LLVMBuildOr(cg->b, LLVMBuildLShr(cg->b, w0, sh, ""), up, "");
	LLVMValueRef x = LLVMBuildXor(cg->b, sw,
				      LLVMBuildLoad2(cg->b, cg->i64, str_at(cg, bd.v[1], off), ""),
				      "");
	x = str_and1(cg, x, LLVMBuildLoad2(cg->b, cg->i64, str_at(cg, bd.v[2], off), ""));
	str_set(cg, diff, LLVMBuildOr(cg->b, str_get(cg, diff), x, ""));
	str_loop_end(cg, &lw);
	LLVMBasicBlockRef jm = str_begin_if(cg, str_eq(cg, str_get(cg, diff), zero));
	LLVMValueRef fwd = str_and1(cg, str_and1(cg, str_eq(cg, str_sload(cg, bd.v[6]), none),
		LLVMBuildICmp(cg->b, LLVMIntSGE, i, str_sload(cg, bd.v[3]), "")),
		LLVMBuildICmp(cg->b, LLVMIntSLT, i, str_sload(cg, bd.v[5]), ""));
	LLVMBasicBlockRef jf = str_begin_if(cg, fwd);
	str_sstore(cg, bd.v[6], i);
	str_end_if(cg, jf);
	LLVMBasicBlockRef jl = str_begin_if(cg,
			LLVMBuildICmp(cg->b, LLVMIntSLE, i, str_sload(cg, bd.v[4]),
							  ""));
	str_sstore(cg, bd.v[7], i);
	str_end_if(cg, jl);
	str_end_if(cg, jm);
	str_body_end(cg, &bd);
	first = str_sload(cg, first);
	last = str_sload(cg, last);
	LLVMValueRef empty = str_eq(cg, tlen, zero);
	LLVMValueRef both = str_and1(cg, str_eq(cg, len, zero), empty);
	if (kind == S_STRSTR) {
		LLVMValueRef d = str_result(cg, 0);
		LLVMValueRef at0 = first;
		LLVMBasicBlockRef join = str_begin_if(cg, LLVMBuildOr(cg->b, both,
			LLVMBuildICmp(cg->b, LLVMIntSGE, at0, zero, ""), ""));
		str_copy_from(cg, d, s, str_sel(cg, both, zero, at0));
		str_end_if(cg, join);
		cg_str_null_unless(cg, d, LLVMBuildOr(cg->b, both,
			LLVMBuildICmp(cg->b, LLVMIntSGE, at0, zero, ""), ""));
		return str_val(d, cg);
	}
	LLVMValueRef r;
	if (kind == S_INDEX) {
		r = first;
		if (pos) {
			/* from at or past the end: only "" is found, at the end */
			LLVMValueRef past = LLVMBuildICmp(cg->b, LLVMIntSGE, lo, len, "");
			r = str_sel(cg, past, str_sel(cg, empty, len, none), r);
		}
	} else {
		r = last;
		if (pos) {
			LLVMValueRef negp = LLVMBuildICmp(cg->b, LLVMIntSLT, pos, zero, "");
			r = str_sel(cg, negp, str_sel(cg, empty, zero, none), r);
		}
	}
	r = str_sel(cg, both, zero, r);
	return str_intval(r, &type_int);
}

/* strchr(s, c) / strrchr(s, c): the rest of s from the first / last c,
 * or the NULL string; c may be the NUL, whose rest is empty. The
 * scan goes backwards for strchr(), so that the last hit it stores wins. */
static struct cval strchr_(struct cg *cg, struct cval s, LLVMValueRef c, bool last)
{
	unsigned cap = str_cap(cg, s);
	LLVMValueRef none = str_k64(cg, (uint64_t)-1);
	c = str_and1(cg, c, str_k64(cg, 0xff));
	LLVMValueRef d = str_result(cg, 0), found = str_slot(cg, none);
	LLVMBasicBlockRef join = str_begin_if(cg,
			LLVMBuildICmp(cg->b, LLVMIntNE, c, str_k64(cg, 0), ""));
	struct str_body b;
	LLVMValueRef vals[3] = { s.v, found, c };
	str_body_begin(cg, &b, cap, vals, 3);
	LLVMValueRef i = last ? b.i : LLVMBuildSub(cg->b, str_k64(cg, cap - 1), b.i, "");
	LLVMBasicBlockRef j2 = str_begin_if(cg, str_eq(cg, str_byte_at(cg, b.v[0], i), b.v[2]));
	str_sstore(cg, b.v[1], i);
	str_end_if(cg, j2);
	str_body_end(cg, &b);
	LLVMValueRef f = str_sload(cg, found);
	LLVMBasicBlockRef j3 = str_begin_if(cg, LLVMBuildICmp(cg->b, LLVMIntNE, f, none, ""));
	str_copy_from(cg, d, s, f);
	str_end_if(cg, j3);
	cg_str_null_unless(cg, d, LLVMBuildICmp(cg->b, LLVMIntNE, f, none, ""));
	str_end_if(cg, join);
	return str_val(d, cg);
}

/* a base outside 2..36 is DTrace's illegal operation */
static void check_base(struct cg *cg, LLVMValueRef base)
{
	LLVMValueRef off = LLVMBuildSub(cg->b, base, str_k64(cg, 2), "");
	cg_fault_if(cg, LLVMBuildICmp(cg->b, LLVMIntUGT, off, str_k64(cg, 34), ""), DCC_FAULT_ILLOP,
		    NULL);
}

/* lltostr(n[, base]): digits written right to left at fixed places, then
 * DTrace's prefixes ("-", "0", "0x") before them; base 2 to 36 */
static struct cval lltostr(struct cg *cg, LLVMValueRef n, LLVMValueRef base)
{
	LLVMValueRef zero = str_k64(cg, 0);
	if (base)
		check_base(cg, base);
	else
		base = str_k64(cg, 10);
	LLVMValueRef ten = str_eq(cg, base, str_k64(cg, 10));
	LLVMValueRef hex = str_eq(cg, base, str_k64(cg, 16));
	LLVMValueRef neg = LLVMBuildICmp(cg->b, LLVMIntSLT, n, zero, "");
	LLVMValueRef isz = str_eq(cg, n, zero);
	LLVMValueRef v = str_slot(cg, str_sel(cg, str_and1(cg, ten, neg),
					      LLVMBuildNeg(cg->b, n, ""), n));
	LLVMValueRef nd = str_slot(cg, zero);
	LLVMValueRef buf = str_scratch(cg, 128);
	str_put_byte(cg, buf, str_k64(cg, 127), zero);
	struct str_body b;
	LLVMValueRef vals[5] = { buf, v, nd, base, str_slot(cg, str_k64(cg, 126)) };
	str_body_begin(cg, &b, 64, vals, 5);
	LLVMValueRef x = str_sload(cg, b.v[1]);
	LLVMValueRef dg = LLVMBuildURem(cg->b, x, b.v[3], "");
	LLVMValueRef ch = str_sel(cg, LLVMBuildICmp(cg->b, LLVMIntULT, dg, str_k64(cg, 10), ""),
				  LLVMBuildAdd(cg->b, dg, str_k64(cg, '0'), ""),
				  LLVMBuildAdd(cg->b, dg, str_k64(cg, 'a' - 10), ""));
	/* at 126 - i, kept in memory: computed from i, the backend makes it
	 * buf - i + 126, a negative offset the verifier refuses */
	LLVMValueRef at_ = str_sload(cg, b.v[4]);
	str_put_byte(cg, b.v[0], str_and1(cg, at_, str_k64(cg, 127)), ch);
	str_sstore(cg, b.v[4], LLVMBuildSub(cg->b, at_, str_k64(cg, 1), ""));
	str_sstore(cg, b.v[2], LLVMBuildAdd(cg->b, str_sload(cg, b.v[2]), LLVMBuildZExt(cg->b,
		LLVMBuildICmp(cg->b, LLVMIntNE, x, zero, ""), cg->i64, ""), ""));
	str_sstore(cg, b.v[1], LLVMBuildUDiv(cg->b, x, b.v[3], ""));
	str_body_end(cg, &b);
	/* p: where the string starts, as prefixes are added */
	LLVMValueRef p = str_var(cg, LLVMBuildSub(cg->b, str_k64(cg, 127), str_sload(cg, nd), ""));
	struct { LLVMValueRef when; char c; } pre[4] = {
		{ str_and1(cg, isz, hex), '0' }, { hex, 'x' },
		{ LLVMBuildOr(cg->b, isz,
			      LLVMBuildOr(cg->b, hex, str_eq(cg, base, str_k64(cg, 8)), ""),
			      ""), '0' },
		{ str_and1(cg, neg, ten), '-' },
	};
	for (int k = 0; k < 4; k++) {
		LLVMBasicBlockRef join = str_begin_if(cg, pre[k].when);
		LLVMValueRef np = LLVMBuildSub(cg->b, str_get(cg, p), str_k64(cg, 1), "");
		str_put_byte(cg, buf, str_bounded(cg, np, 127), str_k64(cg, (uint64_t)pre[k].c));
		str_set(cg, p, np);
		str_end_if(cg, join);
	}
	LLVMValueRef d = str_result(cg, 0);
	unsigned max = cg->strsize < 72 ? cg->strsize : 72;
	str_read(cg, d, str_k64(cg, max), str_at(cg, buf, str_bounded(cg, str_get(cg, p), 127)));
	return str_val(d, cg);
}

/* strtoll(s[, base]) as DTrace reads it: blanks and tabs, a sign, "0x"
 * or "0X" in base 16 when a hex digit follows, then digits below base.
 * A state per byte: 0 blanks, 1 first byte after them (or the sign),
 * 2 digits, 3 after a leading 0 in base 16, 4 done. */
static struct cval strtoll_(struct cg *cg, struct cval s, LLVMValueRef base)
{
	LLVMValueRef zero = str_k64(cg, 0);
	if (base)
		check_base(cg, base);
	else
		base = str_k64(cg, 10);
	LLVMValueRef st = str_slot(cg, zero), val = str_slot(cg, zero), neg = str_slot(cg, zero);
	struct str_body b;
	LLVMValueRef vals[5] = { s.v, st, val, neg, base };
	str_body_begin(cg, &b, str_cap(cg, s), vals, 5);
	st = b.v[1], val = b.v[2], neg = b.v[3], base = b.v[4];
	LLVMValueRef c = str_byte_at(cg, b.v[0], b.i), state = str_sload(cg, st);
	LLVMValueRef blank = LLVMBuildOr(cg->b, str_eq(cg, c, str_k64(cg, ' ')),
					 str_eq(cg, c, str_k64(cg, '\t')),
					 "");
	LLVMValueRef sign = LLVMBuildOr(cg->b, str_eq(cg, c, str_k64(cg, '-')),
					str_eq(cg, c, str_k64(cg, '+')),
					"");
	LLVMValueRef s0 = str_eq(cg, state, zero);
	/* blanks and a sign only in state 0 */
	LLVMValueRef skip = str_and1(cg, s0, LLVMBuildOr(cg->b, blank, sign, ""));
	LLVMValueRef signs = str_and1(cg, s0, sign);
	str_sstore(cg, neg, str_sel(cg, signs,
			LLVMBuildZExt(cg->b, str_eq(cg, c, str_k64(cg, '-')), cg->i64, ""),
			 str_sload(cg, neg)));
	state = str_sel(cg, s0, str_sel(cg, signs, str_k64(cg, 1),
					str_sel(cg, blank, zero, str_k64(cg, 1))), state);
	/* "0x" after a leading 0 in base 16: keep going as digits */
	LLVMValueRef x = str_and1(cg, str_eq(cg, state, str_k64(cg, 3)),
				  str_eq(cg, LLVMBuildOr(cg->b, c, str_k64(cg, 0x20), ""),
					 str_k64(cg, 'x')));
	/* the digit's value, or 99 */
	LLVMValueRef lc = LLVMBuildOr(cg->b, c, str_k64(cg, 0x20), "");
	LLVMValueRef dec = LLVMBuildSub(cg->b, c, str_k64(cg, '0'), "");
	LLVMValueRef alpha = LLVMBuildSub(cg->b, lc, str_k64(cg, 'a'), "");
	LLVMValueRef isdec = LLVMBuildICmp(cg->b, LLVMIntULT, dec, str_k64(cg, 10), "");
	LLVMValueRef dv = str_sel(cg, isdec, dec,
		str_sel(cg, LLVMBuildICmp(cg->b, LLVMIntULT, alpha, str_k64(cg, 26), ""),
			LLVMBuildAdd(cg->b, alpha, str_k64(cg, 10), ""), str_k64(cg, 99)));
	LLVMValueRef digits = LLVMBuildAnd(cg->b, LLVMBuildNot(cg->b, skip, ""),
		str_and1(cg, LLVMBuildICmp(cg->b, LLVMIntULT, state, str_k64(cg, 4), ""),
			 LLVMBuildNot(cg->b, x, "")), "");
	LLVMValueRef ok = str_and1(cg, digits, LLVMBuildICmp(cg->b, LLVMIntULT, dv, base, ""));
	LLVMValueRef acc = LLVMBuildMul(cg->b, str_sload(cg, val), base, "");
	str_sstore(cg, val, str_sel(cg, ok, LLVMBuildAdd(cg->b, acc, dv, ""), str_sload(cg, val)));
	LLVMValueRef zero16 = str_and1(cg, str_and1(cg, ok, str_eq(cg, state, str_k64(cg, 1))),
				       str_and1(cg, str_eq(cg, c, str_k64(cg, '0')),
						str_eq(cg, base, str_k64(cg, 16))));
	LLVMValueRef next = str_sel(cg, x, str_k64(cg, 2), str_sel(cg, zero16, str_k64(cg, 3),
		str_sel(cg, ok, str_k64(cg, 2), str_sel(cg, digits, str_k64(cg, 4), state))));
	str_sstore(cg, st, next);
	str_body_end(cg, &b);
	st = vals[1], val = vals[2], neg = vals[3];
	LLVMValueRef v = str_sload(cg, val);
	LLVMValueRef isneg = LLVMBuildICmp(cg->b, LLVMIntNE, str_sload(cg, neg), zero, "");
	v = str_sel(cg, isneg, LLVMBuildNeg(cg->b, v, ""), v);
	return str_intval(v, &type_llong);
}

/* strtok(NULL, delim) with no string given before it (the saved rest
 * starts with two zero bytes) is DTrace's invalid address */
static void tok_goes_on(struct cg *cg, LLVMValueRef saved)
{
	LLVMValueRef w = LLVMBuildLoad2(cg->b, LLVMInt16TypeInContext(cg->C), saved, "");
	cg_fault_if(cg, LLVMBuildICmp(cg->b, LLVMIntEQ, w,
				      LLVMConstInt(LLVMInt16TypeInContext(cg->C), 0, 0), ""),
		    DCC_FAULT_BADADDR, str_k64(cg, 0));
}

/* strtok(s, delim), strtok(NULL, delim): s is copied into the firing's
 * strtok() clause-local; one pass skips the bytes of delim, then takes the
 * token up to the next one; the token is the result and what follows it
 * stays for the next call. A string with no token left gives the NULL
 * string, as DTrace's strtok() returns NULL. */
static struct cval strtok_(struct cg *cg, struct node *n, struct cval s, struct cval delim)
{
	struct var *v = n->sym;
	unsigned size = cg->strsize;
	LLVMValueRef saved = cg_scratch(cg, cg->this_off[v->id]), zero = str_k64(cg, 0);
	if (s.t->kind != T_STRING) {
		tok_goes_on(cg, saved);
	} else if (cg_str_maybe_null(n->list)) {
		LLVMValueRef isnull = cg_str_isnull(cg, s.v);
		LLVMBasicBlockRef j = str_begin_if(cg, isnull);
		tok_goes_on(cg, saved);
		str_end_if(cg, j);
		j = str_begin_if(cg, LLVMBuildNot(cg->b, isnull, ""));
		cg_strcopy(cg, saved, size, s);
		str_end_if(cg, j);
	} else {
		cg_strcopy(cg, saved, size, s);
	}
	LLVMValueRef map = str_scratch(cg, 32);
	cg_memop(cg, "llvm.memset", map, NULL, 32);
	struct str_body b;
	LLVMValueRef dv[2] = { delim.v, map };
	str_body_begin(cg, &b, str_cap(cg, delim), dv, 2);
	LLVMValueRef c = str_byte_at(cg, b.v[0], b.i);
	LLVMValueRef p = str_at(cg, b.v[1], LLVMBuildLShr(cg->b, c, str_k64(cg, 3), ""));
	LLVMValueRef bit = LLVMBuildShl(cg->b, str_k64(cg, 1), str_and1(cg, c, str_k64(cg, 7)), "");
	str_put_byte(cg, p, zero, LLVMBuildOr(cg->b, str_byte_at(cg, p, zero), bit, ""));
	str_body_end(cg, &b);
	/* the bytes of delim: the NUL's bit is cleared, it ends the string */
	str_put_byte(cg, map, zero, str_and1(cg, str_byte_at(cg, map, zero), str_k64(cg, 0xfe)));
	LLVMValueRef start = str_slot(cg, zero), end = str_slot(cg, zero);
	LLVMValueRef phase = str_slot(cg, zero);
	LLVMValueRef tv[5] = { saved, map, start, end, phase };
	str_body_begin(cg, &b, size, tv, 5);
	c = str_byte_at(cg, b.v[0], b.i);
	LLVMValueRef in = str_byte_at(cg, b.v[1], LLVMBuildLShr(cg->b, c, str_k64(cg, 3), ""));
	in = str_and1(cg, LLVMBuildLShr(cg->b, in, str_and1(cg, c, str_k64(cg, 7)), ""),
		      str_k64(cg, 1));
	LLVMValueRef stop = LLVMBuildOr(cg->b, str_eq(cg, c, zero), str_eq(cg, in, str_k64(cg, 1)),
					"");
	LLVMValueRef ph = str_sload(cg, b.v[4]);
	LLVMBasicBlockRef j0 = str_begin_if(cg, str_and1(cg, str_eq(cg, ph, zero),
		LLVMBuildOr(cg->b, str_eq(cg, c, zero), str_eq(cg, in, zero), "")));
	/* skipping: the first byte not in delim starts the token (or ends all) */
	str_sstore(cg, b.v[2], b.i);
	str_sstore(cg, b.v[3], b.i);
	str_sstore(cg, b.v[4], str_sel(cg, str_eq(cg, c, zero), str_k64(cg, 2), str_k64(cg, 1)));
	str_end_if(cg, j0);
	LLVMBasicBlockRef j1 = str_begin_if(cg, str_and1(cg, str_eq(cg, ph, str_k64(cg, 1)), stop));
	str_sstore(cg, b.v[3], b.i);
	str_sstore(cg, b.v[4], str_k64(cg, 2));
	str_end_if(cg, j1);
	str_body_end(cg, &b);
	LLVMValueRef d = str_result(cg, 0);
	LLVMValueRef from = str_bounded(cg, str_sload(cg, start), size - 1);
	LLVMValueRef len = str_bounded(cg,
			LLVMBuildSub(cg->b, str_sload(cg, end), str_sload(cg, start), ""),
				   size - 1);
	str_read(cg, d, LLVMBuildAdd(cg->b, len, str_k64(cg, 1), ""), str_at(cg, saved, from));
	/* a token has a byte at least: none is NULL */
	cg_str_null_unless(cg, d, LLVMBuildICmp(cg->b, LLVMIntNE, len, zero, ""));
	/* what follows the token, moved to the front */
	LLVMValueRef rest = str_scratch(cg, size);
	cg_memop(cg, "llvm.memset", rest, NULL, size);
	str_read(cg, rest, str_k64(cg, size),
		 str_at(cg, saved, str_bounded(cg, str_sload(cg, end), size - 1)));
	cg_memop(cg, "llvm.memcpy", saved, rest, size);
	/* nothing left, but a string was given: "\0\1" */
	str_put_byte(cg, saved, str_k64(cg, 1), str_sel(cg, str_eq(cg, str_byte_at(cg, saved, zero),
		zero), str_k64(cg, 1), str_byte_at(cg, saved, str_k64(cg, 1))));
	return str_val(d, cg);
}

/* toupper(s), tolower(s): 8 bytes at a time; a byte is a letter to flip
 * when its low 7 bits are in range and its top bit is clear */
static struct cval changecase(struct cg *cg, struct cval s, bool upper)
{
	unsigned words = str_cap(cg, s) / 8;
	LLVMValueRef d = str_result(cg, 0);
	uint64_t lo = upper ? 'a' : 'A', hi = upper ? 'z' : 'Z';
	LLVMValueRef b7 = str_k64(cg, 0x7f7f7f7f7f7f7f7full);
	LLVMValueRef b8 = str_k64(cg, 0x8080808080808080ull);
	struct str_loop l;
	LLVMValueRef w = str_loop_begin(cg, &l, words);
	LLVMValueRef off = LLVMBuildMul(cg->b, w, str_k64(cg, 8), "");
	LLVMValueRef x = LLVMBuildLoad2(cg->b, cg->i64, str_at(cg, s.v, off), "");
	LLVMValueRef h = str_and1(cg, x, b7);
	LLVMValueRef ge = LLVMBuildAdd(cg->b, h, str_k64(cg, 0x0101010101010101ull * (0x80 - lo)),
				       "");
	LLVMValueRef gt = LLVMBuildAdd(cg->b, h, str_k64(cg, 0x0101010101010101ull * (0x7f - hi)),
				       "");
	LLVMValueRef m = str_and1(cg, str_and1(cg, ge, LLVMBuildNot(cg->b, gt, "")),
				  str_and1(cg, LLVMBuildNot(cg->b, x, ""), b8));
	x = LLVMBuildXor(cg->b, x, LLVMBuildLShr(cg->b, m, str_k64(cg, 2), ""), "");
	LLVMBuildStore(cg->b, x, str_at(cg, d, off));
	str_loop_end(cg, &l);
	if (words * 8 >= cg->strsize)
		str_put_byte(cg, d, str_k64(cg, cg->strsize - 1), str_k64(cg, 0));
	return str_val(d, cg);
}

/* s[i]: the char at byte i of the string's buffer, 0 past its capacity
 * (the offset is masked or clamped before it indexes anything). */
struct cval cg_str_index(struct cg *cg, struct node *n)
{
	struct cval s = cg_expr(cg, n->a);
	LLVMValueRef i = cg_expr(cg, n->list).v;
	/* the NULL string has no bytes: s[i] reads address 0 + i */
	if (cg_str_maybe_null(n->a))
		cg_fault_if(cg, cg_str_isnull(cg, s.v), DCC_FAULT_BADADDR, i);
	unsigned cap = str_cap(cg, s);
	LLVMValueRef in = LLVMBuildICmp(cg->b, LLVMIntULT, i, str_k64(cg, cap), "");
	LLVMValueRef b = str_byte_at(cg, s.v, str_bounded(cg, i, cap - 1));
	b = str_sel(cg, in, b, str_k64(cg, 0));
	return (struct cval){ .v = cg_norm(cg, b, n->type), .t = n->type };
}

struct cval cg_string(struct cg *cg, struct node *n)
{
	enum builtin_id f = n->bi->id;
	struct cval a[3] = { 0 };
	int i = 0;
	for (struct node *x = n->list; x && i < 3; x = x->next, i++) {
		a[i] = cg_expr(cg, x);
		/* strtok(NULL, delim) goes on; other NULL strings fault */
		if (x->type->kind == T_STRING && !(f == BI_STRTOK && i == 0))
			cg_str_notnull(cg, x, a[i]);
	}
	LLVMValueRef v2 = i > 1 ? a[1].v : NULL, v3 = i > 2 ? a[2].v : NULL;
	switch (f) {
	case BI_STRLEN:
		return str_intval(str_len(cg, a[0]), n->type);
	case BI_STRJOIN:
		return strjoin(cg, a[0], a[1]);
	case BI_SUBSTR:
		return substr(cg, a[0], v2, v3);
	case BI_STRSTR:
		return search(cg, S_STRSTR, a[0], a[1], NULL);
	case BI_INDEX:
	case BI_RINDEX:
		return search(cg, f == BI_INDEX ? S_INDEX : S_RINDEX, a[0], a[1], v3);
	case BI_STRCHR:
	case BI_STRRCHR:
		return strchr_(cg, a[0], v2, f == BI_STRRCHR);
	case BI_BASENAME:
	case BI_DIRNAME:
		return cg_path_part(cg, a[0], f == BI_DIRNAME);
	case BI_LLTOSTR:
		return lltostr(cg, a[0].v, v2);
	case BI_STRTOK:
		return strtok_(cg, n, a[0], a[1]);
	case BI_CLEANPATH:
		return cg_cleanpath(cg, a[0]);
	case BI_STRTOLL:
		return strtoll_(cg, a[0], v2);
	default:
		return changecase(cg, a[0], f == BI_TOUPPER);
	}
}

/* A word of a string for a comparison. Volatile unless the string is a
 * constant: LLVM would otherwise forward the words of a copy made under a
 * branch (a thread-local's found/missing paths) through one phi a word,
 * all live at once, and at strsize 512 their spills pass the 512 bytes of
 * stack. */
static LLVMValueRef str_word(struct cg *cg, LLVMValueRef s, unsigned off)
{
	LLVMValueRef o = cg_i64(cg, off);
	LLVMValueRef w = LLVMBuildLoad2(cg->b, cg->i64, LLVMBuildGEP2(cg->b, cg->i8, s, &o, 1, ""),
					"");
	if (!(LLVMIsAGlobalVariable(s) && LLVMIsGlobalConstant(s)))
		LLVMSetVolatile(w, 1);
	return w;
}

/* Equality of two NUL-padded buffers: compare the shorter buffer's words
 * (it holds its NUL, so equal words mean equal strings). The OR of the
 * words' differences goes through cg_opaque(): LLVM would otherwise make
 * it one comparison a word, each a branch in BPF, and a few of those
 * results kept live across a later branchy expression multiply the paths
 * the verifier walks (gen seed 16: a million instructions). */
LLVMValueRef cg_str_equal(struct cg *cg, struct cval a, struct cval b)
{
	unsigned n = a.cap < b.cap ? a.cap : b.cap;
	LLVMValueRef acc = cg_i64(cg, 0);
	for (unsigned off = 0; off < n; off += 8)
		acc = LLVMBuildOr(cg->b, acc, LLVMBuildXor(cg->b, str_word(cg, a.v, off),
							   str_word(cg, b.v, off), ""), "");
	return LLVMBuildICmp(cg->b, LLVMIntEQ, cg_opaque(cg, acc), cg_i64(cg, 0), "");
}

/* s1 < s2 and the other orderings: strcmp()'s sign (-1, 0, 1) of two
 * NUL-padded buffers over the shorter one (which holds its NUL). The
 * words are compared in a bpf_loop() body, most significant byte first:
 * an IR loop over the bytes would have the verifier walk every byte of
 * every comparison down one path, and a few comparisons of long equal
 * prefixes exceed what it follows. */
LLVMValueRef cg_str_order(struct cg *cg, struct cval a, struct cval b)
{
	unsigned ca = str_cap(cg, a), cb = str_cap(cg, b), words = ((ca < cb ? ca : cb) + 7) / 8;
	LLVMValueRef res = str_slot(cg, str_k64(cg, 0));
	LLVMValueRef vals[3] = { a.v, b.v, res };
	struct str_body bd;
	str_body_begin(cg, &bd, words, vals, 3);
	LLVMValueRef off = LLVMBuildMul(cg->b, bd.i, str_k64(cg, 8), "");
	LLVMTypeRef t = cg->i64;
	unsigned id = LLVMLookupIntrinsicID("llvm.bswap", 10);
	LLVMValueRef bswap = LLVMGetIntrinsicDeclaration(cg->M, id, &t, 1);
	LLVMTypeRef fty = LLVMIntrinsicGetType(cg->C, id, &t, 1);
	LLVMValueRef w[2];
	for (int k = 0; k < 2; k++) {
		LLVMValueRef ld = LLVMBuildLoad2(cg->b, cg->i64, str_at(cg, bd.v[k], off), "");
		LLVMSetAlignment(ld, 1);
		w[k] = LLVMBuildCall2(cg->b, fty, bswap, &ld, 1, "");
	}
	LLVMBasicBlockRef stop = cg_block(cg, "scmp.stop"), same = cg_block(cg, "scmp.same");
	LLVMBasicBlockRef differ = cg_block(cg, "scmp.differ");
	LLVMBuildCondBr(cg->b, str_eq(cg, w[0], w[1]), same, differ);
	LLVMPositionBuilderAtEnd(cg->b, differ);
	str_sstore(cg, bd.v[2], str_sel(cg, LLVMBuildICmp(cg->b, LLVMIntULT, w[0], w[1], ""),
					str_k64(cg, (uint64_t)-1), str_k64(cg, 1)));
	LLVMBuildBr(cg->b, stop);
	LLVMPositionBuilderAtEnd(cg->b, stop);
	LLVMBuildRet(cg->b, str_k64(cg, 1));
	/* equal words holding a NUL: the strings are equal */
	LLVMPositionBuilderAtEnd(cg->b, same);
	LLVMValueRef z = str_and1(cg, str_and1(cg,
		LLVMBuildSub(cg->b, w[0], str_k64(cg, 0x0101010101010101ull), ""),
		LLVMBuildNot(cg->b, w[0], "")), str_k64(cg, 0x8080808080808080ull));
	LLVMBasicBlockRef more = cg_block(cg, "scmp.more");
	LLVMBuildCondBr(cg->b, str_eq(cg, z, str_k64(cg, 0)), more, stop);
	LLVMPositionBuilderAtEnd(cg->b, more);
	str_body_end(cg, &bd);
	return str_sload(cg, res);
}
