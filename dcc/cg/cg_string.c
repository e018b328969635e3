/*
 * D's string subroutines -> IR: strlen(), strjoin(), substr(), index(),
 * rindex(), strstr(), strchr(), strrchr(), lltostr(), strtoll(), toupper()
 * and tolower() here, basename(), dirname() and cleanpath() in cg_path.c,
 * with DTrace's results and faults.
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

/* strjoin(a, b): DTrace runs out of scratch space when the two don't fit
 * in strsize bytes with their NUL */
static struct cval strjoin(struct cg *cg, struct cval a, struct cval b)
{
	unsigned size = cg->strsize;
	LLVMValueRef la = str_len(cg, a), lb = str_len(cg, b);
	cg_fault_if(cg, LLVMBuildICmp(cg->b, LLVMIntUGE, LLVMBuildAdd(cg->b, la, lb, ""),
				      k64(cg, size), ""), DCC_FAULT_NOSCRATCH, NULL);
	LLVMValueRef d = result(cg, size);
	read_str(cg, d, k64(cg, str_cap(cg, a)), a.v);
	la = bounded(cg, la, size - 1);
	read_str(cg, at(cg, d, la), LLVMBuildSub(cg->b, k64(cg, size), la, ""), b.v);
	return strval(d, cg);
}

/* substr(s, index[, len]), with DTrace's arithmetic on the bounds */
static struct cval substr(struct cg *cg, struct cval s, LLVMValueRef index, LLVMValueRef rem)
{
	LLVMValueRef zero = k64(cg, 0), len = str_len(cg, s);
	if (!rem)
		rem = k64(cg, cg->strsize);
	/* a negative index counts from the end; what falls before the start
	 * shortens the length */
	LLVMValueRef neg = LLVMBuildICmp(cg->b, LLVMIntSLT, index, zero, "");
	index = sel(cg, neg, LLVMBuildAdd(cg->b, index, len, ""), index);
	LLVMValueRef before = and1(cg, neg, and1(cg,
		LLVMBuildICmp(cg->b, LLVMIntSLT, index, zero, ""),
		LLVMBuildICmp(cg->b, LLVMIntSGT, LLVMBuildAdd(cg->b, index, rem, ""), zero, "")));
	rem = sel(cg, before, LLVMBuildAdd(cg->b, rem, index, ""), rem);
	index = sel(cg, before, zero, index);
	/* then: nothing past the end; a negative length leaves that many
	 * off the end; never past strsize (the copy stops at the NUL) */
	LLVMValueRef out = LLVMBuildICmp(cg->b, LLVMIntUGE, index, len, "");
	LLVMValueRef left = LLVMBuildSub(cg->b, len, index, "");
	LLVMValueRef rneg = LLVMBuildICmp(cg->b, LLVMIntSLT, rem, zero, "");
	rem = sel(cg, rneg, LLVMBuildAdd(cg->b, rem, left, ""), rem);
	rem = sel(cg, LLVMBuildICmp(cg->b, LLVMIntSGT, rem, left, ""), left, rem);
	rem = sel(cg, out, zero, rem);
	LLVMValueRef d = result(cg, 0);
	rem = opaque(cg, rem);
	LLVMBasicBlockRef join = begin_if(cg, LLVMBuildICmp(cg->b, LLVMIntSGT, rem, zero, ""));
	unsigned max = str_cap(cg, s) - 1;
	index = bounded(cg, index, max);
	rem = bounded(cg, rem, max);
	read_str(cg, d, LLVMBuildAdd(cg->b, rem, k64(cg, 1), ""), at(cg, s.v, index));
	end_if(cg, join);
	return strval(d, cg);
}

/* The NUL-padded words of t, and a mask of its bytes before the NUL. */
static void needle(struct cg *cg, struct cval t, unsigned words, LLVMValueRef *tw, LLVMValueRef *tm)
{
	*tw = scratch(cg, 8 * words);
	*tm = scratch(cg, 8 * words);
	cg_memop(cg, "llvm.memcpy", *tw, t.v, 8 * words);
	struct loop l;
	LLVMValueRef w = loop_begin(cg, &l, words);
	LLVMValueRef off = LLVMBuildMul(cg->b, w, k64(cg, 8), "");
	LLVMValueRef x = LLVMBuildLoad2(cg->b, cg->i64, at(cg, *tw, off), "");
	LLVMValueRef lo7 = k64(cg, 0x7f7f7f7f7f7f7f7full);
	LLVMValueRef hi = LLVMBuildOr(cg->b, LLVMBuildAdd(cg->b, and1(cg, x, lo7), lo7, ""), x, "");
	hi = LLVMBuildLShr(cg->b, and1(cg, hi, k64(cg, 0x8080808080808080ull)), k64(cg, 7), "");
	LLVMBuildStore(cg->b, LLVMBuildMul(cg->b, hi, k64(cg, 0xff), ""), at(cg, *tm, off));
	loop_end(cg, &l);
}

enum search { S_STRSTR, S_INDEX, S_RINDEX };

/* strstr(s, t), index(s, t[, pos]), rindex(s, t[, pos]): every position
 * i of s is tried, 8 bytes of t at a time against s's bytes i.. made of
 * two aligned words; the first match from lo and the last up to hi win. */
static struct cval search(struct cg *cg, enum search kind, struct cval s, struct cval t,
			  LLVMValueRef pos)
{
	unsigned scap = str_cap(cg, s), tcap = str_cap(cg, t), words = (tcap + 7) / 8;
	LLVMValueRef zero = k64(cg, 0), none = k64(cg, (uint64_t)-1);
	LLVMValueRef len = str_len(cg, s), tlen = str_len(cg, t);
	LLVMValueRef tw, tm;
	needle(cg, t, words, &tw, &tm);
	/* s, zero-padded so that position scap - 1 can still read t's length */
	unsigned sbytes = (scap + 7) / 8 * 8 + 8 * words + 8;
	LLVMValueRef sb = scratch(cg, sbytes);
	cg_memop(cg, "llvm.memset", sb, NULL, sbytes);
	cg_memop(cg, "llvm.memcpy", sb, s.v, (scap + 7) / 8 * 8);
	LLVMValueRef lo = zero, hi = len;
	if (kind == S_INDEX && pos)
		lo = sel(cg, LLVMBuildICmp(cg->b, LLVMIntSLT, pos, zero, ""), zero, pos);
	if (kind == S_RINDEX && pos)
		hi = sel(cg, LLVMBuildICmp(cg->b, LLVMIntSGT, pos, len, ""), len, pos);
	/* the bounds are read again at each use: a comparison with the
	 * position then narrows a copy, never state the loop carries */
	LLVMValueRef lo_s = slot(cg, lo), hi_s = slot(cg, hi), len_s = slot(cg, len);
	LLVMValueRef first = slot(cg, none), last = slot(cg, none);
	struct body bd;
	struct loop lw;
	LLVMValueRef vals[8] = { sb, tw, tm, lo_s, hi_s, len_s, first, last };
	body_begin(cg, &bd, scap, vals, 8);
	LLVMValueRef i = bd.i;
	LLVMValueRef sh = LLVMBuildMul(cg->b, and1(cg, i, k64(cg, 7)), k64(cg, 8), "");
	LLVMValueRef base = and1(cg, i, k64(cg, ~7ull));
	LLVMValueRef diff = var(cg, zero);
	LLVMValueRef w = loop_begin(cg, &lw, words);
	LLVMValueRef off = LLVMBuildMul(cg->b, w, k64(cg, 8), "");
	LLVMValueRef p = at(cg, bd.v[0], LLVMBuildAdd(cg->b, base, off, ""));
	LLVMValueRef w0 = LLVMBuildLoad2(cg->b, cg->i64, p, "");
	LLVMValueRef w1 = LLVMBuildLoad2(cg->b, cg->i64, at(cg, p, k64(cg, 8)), "");
	/* (w1 << (64 - sh)) without a shift by 64 when sh is 0 */
	LLVMValueRef up = LLVMBuildShl(cg->b, LLVMBuildShl(cg->b, w1, k64(cg, 1), ""),
				       LLVMBuildSub(cg->b, k64(cg, 63), sh, ""), "");
	LLVMValueRef sw = LLVMBuildOr(cg->b, LLVMBuildLShr(cg->b, w0, sh, ""), up, "");
	LLVMValueRef x = LLVMBuildXor(cg->b, sw,
				      LLVMBuildLoad2(cg->b, cg->i64, at(cg, bd.v[1], off), ""), "");
	x = and1(cg, x, LLVMBuildLoad2(cg->b, cg->i64, at(cg, bd.v[2], off), ""));
	set(cg, diff, LLVMBuildOr(cg->b, get(cg, diff), x, ""));
	loop_end(cg, &lw);
	LLVMBasicBlockRef jm = begin_if(cg, eq(cg, get(cg, diff), zero));
	LLVMValueRef fwd = and1(cg, and1(cg, eq(cg, sload(cg, bd.v[6]), none),
		LLVMBuildICmp(cg->b, LLVMIntSGE, i, sload(cg, bd.v[3]), "")),
		LLVMBuildICmp(cg->b, LLVMIntSLT, i, sload(cg, bd.v[5]), ""));
	LLVMBasicBlockRef jf = begin_if(cg, fwd);
	sstore(cg, bd.v[6], i);
	end_if(cg, jf);
	LLVMBasicBlockRef jl = begin_if(cg, LLVMBuildICmp(cg->b, LLVMIntSLE, i, sload(cg, bd.v[4]),
							  ""));
	sstore(cg, bd.v[7], i);
	end_if(cg, jl);
	end_if(cg, jm);
	body_end(cg, &bd);
	first = sload(cg, first);
	last = sload(cg, last);
	LLVMValueRef empty = eq(cg, tlen, zero);
	LLVMValueRef both = and1(cg, eq(cg, len, zero), empty);
	if (kind == S_STRSTR) {
		LLVMValueRef d = result(cg, 0);
		LLVMValueRef at0 = first;
		LLVMBasicBlockRef join = begin_if(cg, LLVMBuildOr(cg->b, both,
			LLVMBuildICmp(cg->b, LLVMIntSGE, at0, zero, ""), ""));
		copy_from(cg, d, s, sel(cg, both, zero, at0));
		end_if(cg, join);
		return strval(d, cg);
	}
	LLVMValueRef r;
	if (kind == S_INDEX) {
		r = first;
		if (pos) {
			/* from at or past the end: only "" is found, at the end */
			LLVMValueRef past = LLVMBuildICmp(cg->b, LLVMIntSGE, lo, len, "");
			r = sel(cg, past, sel(cg, empty, len, none), r);
		}
	} else {
		r = last;
		if (pos) {
			LLVMValueRef negp = LLVMBuildICmp(cg->b, LLVMIntSLT, pos, zero, "");
			r = sel(cg, negp, sel(cg, empty, zero, none), r);
		}
	}
	r = sel(cg, both, zero, r);
	return intval(r, &type_int);
}

/* strchr(s, c) / strrchr(s, c): the rest of s from the first / last c,
 * or the empty string; c may be the NUL, whose rest is empty too. The
 * scan goes backwards for strchr(), so that the last hit it stores wins. */
static struct cval strchr_(struct cg *cg, struct cval s, LLVMValueRef c, bool last)
{
	unsigned cap = str_cap(cg, s);
	LLVMValueRef none = k64(cg, (uint64_t)-1);
	c = and1(cg, c, k64(cg, 0xff));
	LLVMValueRef d = result(cg, 0), found = slot(cg, none);
	LLVMBasicBlockRef join = begin_if(cg, LLVMBuildICmp(cg->b, LLVMIntNE, c, k64(cg, 0), ""));
	struct body b;
	LLVMValueRef vals[3] = { s.v, found, c };
	body_begin(cg, &b, cap, vals, 3);
	LLVMValueRef i = last ? b.i : LLVMBuildSub(cg->b, k64(cg, cap - 1), b.i, "");
	LLVMBasicBlockRef j2 = begin_if(cg, eq(cg, byte_at(cg, b.v[0], i), b.v[2]));
	sstore(cg, b.v[1], i);
	end_if(cg, j2);
	body_end(cg, &b);
	LLVMValueRef f = sload(cg, found);
	LLVMBasicBlockRef j3 = begin_if(cg, LLVMBuildICmp(cg->b, LLVMIntNE, f, none, ""));
	copy_from(cg, d, s, f);
	end_if(cg, j3);
	end_if(cg, join);
	return strval(d, cg);
}

/* a base outside 2..36 is DTrace's illegal operation */
static void check_base(struct cg *cg, LLVMValueRef base)
{
	LLVMValueRef off = LLVMBuildSub(cg->b, base, k64(cg, 2), "");
	cg_fault_if(cg, LLVMBuildICmp(cg->b, LLVMIntUGT, off, k64(cg, 34), ""), DCC_FAULT_ILLOP,
		    NULL);
}

/* lltostr(n[, base]): digits written right to left at fixed places, then
 * DTrace's prefixes ("-", "0", "0x") before them; base 2 to 36 */
static struct cval lltostr(struct cg *cg, LLVMValueRef n, LLVMValueRef base)
{
	LLVMValueRef zero = k64(cg, 0);
	if (base)
		check_base(cg, base);
	else
		base = k64(cg, 10);
	LLVMValueRef ten = eq(cg, base, k64(cg, 10)), hex = eq(cg, base, k64(cg, 16));
	LLVMValueRef neg = LLVMBuildICmp(cg->b, LLVMIntSLT, n, zero, "");
	LLVMValueRef isz = eq(cg, n, zero);
	LLVMValueRef v = slot(cg, sel(cg, and1(cg, ten, neg), LLVMBuildNeg(cg->b, n, ""), n));
	LLVMValueRef nd = slot(cg, zero);
	LLVMValueRef buf = scratch(cg, 128);
	put_byte(cg, buf, k64(cg, 127), zero);
	struct body b;
	LLVMValueRef vals[5] = { buf, v, nd, base, slot(cg, k64(cg, 126)) };
	body_begin(cg, &b, 64, vals, 5);
	LLVMValueRef x = sload(cg, b.v[1]);
	LLVMValueRef dg = LLVMBuildURem(cg->b, x, b.v[3], "");
	LLVMValueRef ch = sel(cg, LLVMBuildICmp(cg->b, LLVMIntULT, dg, k64(cg, 10), ""),
			      LLVMBuildAdd(cg->b, dg, k64(cg, '0'), ""),
			      LLVMBuildAdd(cg->b, dg, k64(cg, 'a' - 10), ""));
	/* at 126 - i, kept in memory: computed from i, the backend makes it
	 * buf - i + 126, a negative offset the verifier refuses */
	LLVMValueRef at_ = sload(cg, b.v[4]);
	put_byte(cg, b.v[0], and1(cg, at_, k64(cg, 127)), ch);
	sstore(cg, b.v[4], LLVMBuildSub(cg->b, at_, k64(cg, 1), ""));
	sstore(cg, b.v[2], LLVMBuildAdd(cg->b, sload(cg, b.v[2]), LLVMBuildZExt(cg->b,
		LLVMBuildICmp(cg->b, LLVMIntNE, x, zero, ""), cg->i64, ""), ""));
	sstore(cg, b.v[1], LLVMBuildUDiv(cg->b, x, b.v[3], ""));
	body_end(cg, &b);
	/* p: where the string starts, as prefixes are added */
	LLVMValueRef p = var(cg, LLVMBuildSub(cg->b, k64(cg, 127), sload(cg, nd), ""));
	struct { LLVMValueRef when; char c; } pre[4] = {
		{ and1(cg, isz, hex), '0' }, { hex, 'x' },
		{ LLVMBuildOr(cg->b, isz, LLVMBuildOr(cg->b, hex, eq(cg, base, k64(cg, 8)), ""),
			      ""), '0' },
		{ and1(cg, neg, ten), '-' },
	};
	for (int k = 0; k < 4; k++) {
		LLVMBasicBlockRef join = begin_if(cg, pre[k].when);
		LLVMValueRef np = LLVMBuildSub(cg->b, get(cg, p), k64(cg, 1), "");
		put_byte(cg, buf, bounded(cg, np, 127), k64(cg, (uint64_t)pre[k].c));
		set(cg, p, np);
		end_if(cg, join);
	}
	LLVMValueRef d = result(cg, 0);
	unsigned max = cg->strsize < 72 ? cg->strsize : 72;
	read_str(cg, d, k64(cg, max), at(cg, buf, bounded(cg, get(cg, p), 127)));
	return strval(d, cg);
}

/* strtoll(s[, base]) as DTrace reads it: blanks and tabs, a sign, "0x"
 * or "0X" in base 16 when a hex digit follows, then digits below base.
 * A state per byte: 0 blanks, 1 first byte after them (or the sign),
 * 2 digits, 3 after a leading 0 in base 16, 4 done. */
static struct cval strtoll_(struct cg *cg, struct cval s, LLVMValueRef base)
{
	LLVMValueRef zero = k64(cg, 0);
	if (base)
		check_base(cg, base);
	else
		base = k64(cg, 10);
	LLVMValueRef st = slot(cg, zero), val = slot(cg, zero), neg = slot(cg, zero);
	struct body b;
	LLVMValueRef vals[5] = { s.v, st, val, neg, base };
	body_begin(cg, &b, str_cap(cg, s), vals, 5);
	st = b.v[1], val = b.v[2], neg = b.v[3], base = b.v[4];
	LLVMValueRef c = byte_at(cg, b.v[0], b.i), state = sload(cg, st);
	LLVMValueRef blank = LLVMBuildOr(cg->b, eq(cg, c, k64(cg, ' ')), eq(cg, c, k64(cg, '\t')),
					 "");
	LLVMValueRef sign = LLVMBuildOr(cg->b, eq(cg, c, k64(cg, '-')), eq(cg, c, k64(cg, '+')),
					"");
	LLVMValueRef s0 = eq(cg, state, zero);
	/* blanks and a sign only in state 0 */
	LLVMValueRef skip = and1(cg, s0, LLVMBuildOr(cg->b, blank, sign, ""));
	LLVMValueRef signs = and1(cg, s0, sign);
	sstore(cg, neg, sel(cg, signs, LLVMBuildZExt(cg->b, eq(cg, c, k64(cg, '-')), cg->i64, ""),
			 sload(cg, neg)));
	state = sel(cg, s0, sel(cg, signs, k64(cg, 1), sel(cg, blank, zero, k64(cg, 1))), state);
	/* "0x" after a leading 0 in base 16: keep going as digits */
	LLVMValueRef x = and1(cg, eq(cg, state, k64(cg, 3)),
			      eq(cg, LLVMBuildOr(cg->b, c, k64(cg, 0x20), ""), k64(cg, 'x')));
	/* the digit's value, or 99 */
	LLVMValueRef lc = LLVMBuildOr(cg->b, c, k64(cg, 0x20), "");
	LLVMValueRef dec = LLVMBuildSub(cg->b, c, k64(cg, '0'), "");
	LLVMValueRef alpha = LLVMBuildSub(cg->b, lc, k64(cg, 'a'), "");
	LLVMValueRef dv = sel(cg, LLVMBuildICmp(cg->b, LLVMIntULT, dec, k64(cg, 10), ""), dec,
		sel(cg, LLVMBuildICmp(cg->b, LLVMIntULT, alpha, k64(cg, 26), ""),
		    LLVMBuildAdd(cg->b, alpha, k64(cg, 10), ""), k64(cg, 99)));
	LLVMValueRef digits = LLVMBuildAnd(cg->b, LLVMBuildNot(cg->b, skip, ""),
		and1(cg, LLVMBuildICmp(cg->b, LLVMIntULT, state, k64(cg, 4), ""),
		     LLVMBuildNot(cg->b, x, "")), "");
	LLVMValueRef ok = and1(cg, digits, LLVMBuildICmp(cg->b, LLVMIntULT, dv, base, ""));
	LLVMValueRef acc = LLVMBuildMul(cg->b, sload(cg, val), base, "");
	sstore(cg, val, sel(cg, ok, LLVMBuildAdd(cg->b, acc, dv, ""), sload(cg, val)));
	LLVMValueRef zero16 = and1(cg, and1(cg, ok, eq(cg, state, k64(cg, 1))),
				   and1(cg, eq(cg, c, k64(cg, '0')), eq(cg, base, k64(cg, 16))));
	LLVMValueRef next = sel(cg, x, k64(cg, 2), sel(cg, zero16, k64(cg, 3),
		sel(cg, ok, k64(cg, 2), sel(cg, digits, k64(cg, 4), state))));
	sstore(cg, st, next);
	body_end(cg, &b);
	st = vals[1], val = vals[2], neg = vals[3];
	LLVMValueRef v = sload(cg, val);
	LLVMValueRef isneg = LLVMBuildICmp(cg->b, LLVMIntNE, sload(cg, neg), zero, "");
	v = sel(cg, isneg, LLVMBuildNeg(cg->b, v, ""), v);
	return intval(v, &type_llong);
}

/* strtok(s, delim), strtok(NULL, delim): s is copied into the firing's
 * strtok() clause-local; one pass skips the bytes of delim, then takes the
 * token up to the next one; the token is the result and what follows it
 * stays for the next call. A string with no token left gives "". */
static struct cval strtok_(struct cg *cg, struct node *n, struct cval s, struct cval delim)
{
	struct var *v = n->sym;
	unsigned size = cg->strsize;
	LLVMValueRef saved = cg_scratch(cg, cg->this_off[v->id]), zero = k64(cg, 0);
	if (s.t->kind == T_STRING)
		cg_strcopy(cg, saved, size, s);
	LLVMValueRef map = scratch(cg, 32);
	cg_memop(cg, "llvm.memset", map, NULL, 32);
	struct body b;
	LLVMValueRef dv[2] = { delim.v, map };
	body_begin(cg, &b, str_cap(cg, delim), dv, 2);
	LLVMValueRef c = byte_at(cg, b.v[0], b.i);
	LLVMValueRef p = at(cg, b.v[1], LLVMBuildLShr(cg->b, c, k64(cg, 3), ""));
	LLVMValueRef bit = LLVMBuildShl(cg->b, k64(cg, 1), and1(cg, c, k64(cg, 7)), "");
	put_byte(cg, p, zero, LLVMBuildOr(cg->b, byte_at(cg, p, zero), bit, ""));
	body_end(cg, &b);
	/* the bytes of delim: the NUL's bit is cleared, it ends the string */
	put_byte(cg, map, zero, and1(cg, byte_at(cg, map, zero), k64(cg, 0xfe)));
	LLVMValueRef start = slot(cg, zero), end = slot(cg, zero), phase = slot(cg, zero);
	LLVMValueRef tv[5] = { saved, map, start, end, phase };
	body_begin(cg, &b, size, tv, 5);
	c = byte_at(cg, b.v[0], b.i);
	LLVMValueRef in = byte_at(cg, b.v[1], LLVMBuildLShr(cg->b, c, k64(cg, 3), ""));
	in = and1(cg, LLVMBuildLShr(cg->b, in, and1(cg, c, k64(cg, 7)), ""), k64(cg, 1));
	LLVMValueRef stop = LLVMBuildOr(cg->b, eq(cg, c, zero), eq(cg, in, k64(cg, 1)), "");
	LLVMValueRef ph = sload(cg, b.v[4]);
	LLVMBasicBlockRef j0 = begin_if(cg, and1(cg, eq(cg, ph, zero),
		LLVMBuildOr(cg->b, eq(cg, c, zero), eq(cg, in, zero), "")));
	/* skipping: the first byte not in delim starts the token (or ends all) */
	sstore(cg, b.v[2], b.i);
	sstore(cg, b.v[3], b.i);
	sstore(cg, b.v[4], sel(cg, eq(cg, c, zero), k64(cg, 2), k64(cg, 1)));
	end_if(cg, j0);
	LLVMBasicBlockRef j1 = begin_if(cg, and1(cg, eq(cg, ph, k64(cg, 1)), stop));
	sstore(cg, b.v[3], b.i);
	sstore(cg, b.v[4], k64(cg, 2));
	end_if(cg, j1);
	body_end(cg, &b);
	LLVMValueRef d = result(cg, 0);
	LLVMValueRef from = bounded(cg, sload(cg, start), size - 1);
	LLVMValueRef len = bounded(cg, LLVMBuildSub(cg->b, sload(cg, end), sload(cg, start), ""),
				   size - 1);
	read_str(cg, d, LLVMBuildAdd(cg->b, len, k64(cg, 1), ""), at(cg, saved, from));
	/* what follows the token, moved to the front */
	LLVMValueRef rest = scratch(cg, size);
	cg_memop(cg, "llvm.memset", rest, NULL, size);
	read_str(cg, rest, k64(cg, size), at(cg, saved, bounded(cg, sload(cg, end), size - 1)));
	cg_memop(cg, "llvm.memcpy", saved, rest, size);
	return strval(d, cg);
}

/* toupper(s), tolower(s): 8 bytes at a time; a byte is a letter to flip
 * when its low 7 bits are in range and its top bit is clear */
static struct cval changecase(struct cg *cg, struct cval s, bool upper)
{
	unsigned words = str_cap(cg, s) / 8;
	LLVMValueRef d = result(cg, 0);
	uint64_t lo = upper ? 'a' : 'A', hi = upper ? 'z' : 'Z';
	LLVMValueRef b7 = k64(cg, 0x7f7f7f7f7f7f7f7full), b8 = k64(cg, 0x8080808080808080ull);
	struct loop l;
	LLVMValueRef w = loop_begin(cg, &l, words);
	LLVMValueRef off = LLVMBuildMul(cg->b, w, k64(cg, 8), "");
	LLVMValueRef x = LLVMBuildLoad2(cg->b, cg->i64, at(cg, s.v, off), "");
	LLVMValueRef h = and1(cg, x, b7);
	LLVMValueRef ge = LLVMBuildAdd(cg->b, h, k64(cg, 0x0101010101010101ull * (0x80 - lo)), "");
	LLVMValueRef gt = LLVMBuildAdd(cg->b, h, k64(cg, 0x0101010101010101ull * (0x7f - hi)), "");
	LLVMValueRef m = and1(cg, and1(cg, ge, LLVMBuildNot(cg->b, gt, "")),
			      and1(cg, LLVMBuildNot(cg->b, x, ""), b8));
	x = LLVMBuildXor(cg->b, x, LLVMBuildLShr(cg->b, m, k64(cg, 2), ""), "");
	LLVMBuildStore(cg->b, x, at(cg, d, off));
	loop_end(cg, &l);
	if (words * 8 >= cg->strsize)
		put_byte(cg, d, k64(cg, cg->strsize - 1), k64(cg, 0));
	return strval(d, cg);
}

struct cval cg_string(struct cg *cg, struct node *n)
{
	enum builtin_id f = n->bi->id;
	struct cval a[3] = { 0 };
	int i = 0;
	for (struct node *x = n->list; x && i < 3; x = x->next)
		a[i++] = cg_expr(cg, x);
	LLVMValueRef v2 = i > 1 ? a[1].v : NULL, v3 = i > 2 ? a[2].v : NULL;
	switch (f) {
	case BI_STRLEN:
		return intval(str_len(cg, a[0]), n->type);
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
