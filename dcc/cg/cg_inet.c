/*
 * An inet_ntoa()/inet_ntoa6()/inet_ntop()/link_ntop() value (DCC_K_INET:
 * the form word, then the address bytes) -> its text as a D string, in
 * BPF, where the script wants a string rather than something to print: a
 * comparison, a variable, a string subroutine's argument, a '?:' arm with
 * a string. Printing and aggregation keys keep the value itself and let
 * the runtime write the text (runtime/inet.c); this writes the very same
 * text, by the same rules, so the two never disagree.
 *
 * The text is written right to left into a scratch buffer, ending at its
 * last byte: every character is stored just left of the position written
 * so far, and the position moves only when the character counts, so a
 * character that doesn't count is overwritten by the next one or left
 * outside the text. Every store is masked into the buffer. The scans (the
 * zero run, the groups, the dotted quad's bytes, a link address's bytes)
 * are bpf_loop() bodies (cg_string.h) that keep the position and their
 * state in scratch slots: the verifier checks each body once, and the
 * code stays a few hundred instructions whatever the form.
 */
#include "cg_string.h"

#define IN_BUF 128 /* the longest text, link_ntop()'s 59, with room to spare */
#define IN_TEXT 64 /* the result's bytes: the text and its NUL */
#define IN_ADDR 32 /* the address bytes' copy in scratch */

struct itext {
	struct cg *cg;
	LLVMValueRef buf, pos; /* pos: slot of where the text written so far starts */
	LLVMValueRef addr;     /* the address bytes, IN_ADDR of them */
	LLVMValueRef opq;      /* a slot an index goes through (byte()) */
};

static LLVMValueRef k64(struct itext *x, uint64_t v)
{
	return cg_i64(x->cg, v);
}

/* the address byte at i, masked into the copy (through scratch memory:
 * computed from a loop's step, the backend would make it a negative
 * offset the verifier refuses) */
static LLVMValueRef byte(struct itext *x, LLVMValueRef i)
{
	if (!LLVMIsConstant(i)) {
		str_sstore(x->cg, x->opq, i);
		i = str_and1(x->cg, str_sload(x->cg, x->opq), k64(x, IN_ADDR - 1));
	}
	return str_byte_at(x->cg, x->addr, i);
}

static LLVMValueRef cmp(struct itext *x, LLVMIntPredicate p, LLVMValueRef a, LLVMValueRef b)
{
	return LLVMBuildICmp(x->cg->b, p, a, b, "");
}

static LLVMValueRef uge(struct itext *x, LLVMValueRef a, uint64_t b)
{
	return cmp(x, LLVMIntUGE, a, k64(x, b));
}

static LLVMValueRef sub(struct itext *x, LLVMValueRef a, LLVMValueRef b)
{
	return LLVMBuildSub(x->cg->b, a, b, "");
}

static LLVMValueRef both(struct itext *x, LLVMValueRef keep, LLVMValueRef c)
{
	return keep ? str_and1(x->cg, keep, c) : c;
}

/* a flag slot's value */
static LLVMValueRef flag(struct itext *x, LLVMValueRef slot)
{
	return cmp(x, LLVMIntNE, str_sload(x->cg, slot), k64(x, 0));
}

/* the character stored at pos - 1 - back */
static void store(struct itext *x, int back, LLVMValueRef c)
{
	LLVMValueRef at = sub(x, str_sload(x->cg, x->pos), k64(x, (uint64_t)back + 1));
	str_put_byte(x->cg, x->buf, str_and1(x->cg, at, k64(x, IN_BUF - 1)), c);
}

/* pos -= n, where keep (NULL: always) */
static void advance(struct itext *x, LLVMValueRef keep, LLVMValueRef n)
{
	LLVMBasicBlockRef join = keep ? str_begin_if(x->cg, keep) : NULL;
	str_sstore(x->cg, x->pos, sub(x, str_sload(x->cg, x->pos), n));
	if (join)
		str_end_if(x->cg, join);
}

static void put(struct itext *x, LLVMValueRef keep, char c)
{
	store(x, 0, k64(x, (unsigned char)c));
	advance(x, keep, k64(x, 1));
}

static LLVMValueRef hexdigit(struct itext *x, LLVMValueRef d)
{
	struct cg *cg = x->cg;
	return str_sel(cg, cmp(x, LLVMIntULT, d, k64(x, 10)),
		       LLVMBuildAdd(cg->b, d, k64(x, '0'), ""),
		       LLVMBuildAdd(cg->b, d, k64(x, 'a' - 10), ""));
}

/* v (< 256) in decimal, or (< 65536) in hex, without leading zeros */
static void put_num(struct itext *x, LLVMValueRef keep, LLVMValueRef v, bool hex)
{
	struct cg *cg = x->cg;
	int ndig = hex ? 4 : 3;
	for (int k = 0; k < ndig; k++) {
		LLVMValueRef d;
		if (hex)
			d = hexdigit(x, str_and1(cg, LLVMBuildLShr(cg->b, v, k64(x, 4 * (uint64_t)k),
								   ""), k64(x, 15)));
		else
			d = LLVMBuildAdd(cg->b, LLVMBuildURem(cg->b, k ? LLVMBuildUDiv(cg->b, v,
				k64(x, k == 1 ? 10 : 100), "") : v, k64(x, 10), ""), k64(x, '0'), "");
		store(x, k, d);
	}
	/* the digits that count: one, and one more for each power reached */
	advance(x, keep, k64(x, 1));
	for (int k = 1; k < ndig; k++)
		advance(x, both(x, keep, uge(x, v, hex ? 1ull << (4 * k) : k == 1 ? 10 : 100)),
			k64(x, 1));
}

enum { IB_QUAD, IB_ZERO, IB_V6, IB_LINK };

/* Opens bpf_loop() body `which` of n steps whose values are the buffer,
 * the position slot, the address copy, the index slot and up to four
 * more (b->v[4] on); x is pointed at the body's copies. The bodies take
 * everything through their ctx, so one of each serves the whole module:
 * once built, the call is made here and false returned (nothing to build). */
static bool body_begin(struct itext *x, struct itext *in, struct str_body *b, int which,
		       uint64_t n, LLVMValueRef *more, int nmore)
{
	struct cg *cg = in->cg;
	LLVMValueRef vals[8] = { in->buf, in->pos, in->addr, in->opq };
	for (int k = 0; k < nmore; k++)
		vals[4 + k] = more[k];
	if (cg->inet_body[which]) {
		if (cg->p->loopctx_fn != cg->p->fn) {
			cg->p->loopctx = cg_alloca(cg, LLVMArrayType2(cg->i64, 8), "loopctx");
			cg->p->loopctx_fn = cg->p->fn;
		}
		for (int k = 0; k < 4 + nmore; k++)
			LLVMBuildStore(cg->b, vals[k], str_at(cg, cg->p->loopctx,
							      str_k64(cg, 8 * (uint64_t)k)));
		cg_bpf_loop(cg, str_k64(cg, n), cg->inet_body[which], cg->p->loopctx);
		return false;
	}
	str_body_begin(cg, b, n, vals, 4 + nmore);
	cg->inet_body[which] = b->fn;
	*x = (struct itext){ .cg = cg, .buf = b->v[0], .pos = b->v[1], .addr = b->v[2],
			     .opq = b->v[3] };
	return true;
}

/* the dotted quad of the 4 bytes from base (0, or 12 in an IPv6
 * address), right to left, where the keep slot is set */
static void put_quad(struct itext *in, LLVMValueRef keep, uint64_t base)
{
	struct str_body b;
	struct itext x;
	LLVMValueRef more[2] = { keep, k64(in, base + 3) };
	if (!body_begin(&x, in, &b, IB_QUAD, 4, more, 2))
		return;
	LLVMValueRef k = flag(&x, b.v[4]);
	put_num(&x, k, byte(&x, sub(&x, b.v[5], b.i)), false);
	put(&x, str_and1(x.cg, k, cmp(&x, LLVMIntULT, b.i, k64(&x, 3))), '.');
	str_body_end(x.cg, &b);
}

/* The run of zero groups "::" replaces, as runtime/inet.c's zero_run()
 * finds it, into the slots first (-1 for none) and len (bytes); open is
 * the scan's own slot. Step i is address byte i. */
static void zero_run(struct itext *in, LLVMValueRef first, LLVMValueRef len, LLVMValueRef open)
{
	struct cg *cg = in->cg;
	struct str_body b;
	struct itext x;
	LLVMValueRef none = k64(in, (uint64_t)-1);
	str_sstore(cg, first, none);
	str_sstore(cg, len, k64(in, 1));
	str_sstore(cg, open, none);
	LLVMValueRef more[3] = { first, len, open };
	if (!body_begin(&x, in, &b, IB_ZERO, 16, more, 3))
		return;
	first = b.v[4], len = b.v[5], open = b.v[6];
	LLVMValueRef i = b.i, z = str_eq(cg, byte(&x, i), k64(&x, 0));
	LLVMValueRef o = str_sload(cg, open), closed = str_eq(cg, o, none);
	/* a zero byte starting a group opens a run */
	LLVMValueRef even = str_eq(cg, str_and1(cg, i, k64(&x, 1)), k64(&x, 0));
	LLVMBasicBlockRef opens = cg_block(cg, "inet.zopen"), rest = cg_block(cg, "inet.zrest");
	LLVMBasicBlockRef join = cg_block(cg, "inet.zjoin");
	LLVMBuildCondBr(cg->b, str_and1(cg, str_and1(cg, z, closed), even), opens, rest);
	LLVMPositionBuilderAtEnd(cg->b, opens);
	str_sstore(cg, open, i);
	LLVMBuildBr(cg->b, join);
	LLVMPositionBuilderAtEnd(cg->b, rest);
	/* an open run closes at a nonzero byte or the last byte */
	LLVMValueRef stays = LLVMBuildOr(cg->b, closed, str_and1(cg, z, cmp(&x, LLVMIntNE, i,
									      k64(&x, 15))), "");
	LLVMBasicBlockRef closes = str_begin_if(cg, LLVMBuildNot(cg->b, stays, ""));
	LLVMBasicBlockRef wins = str_begin_if(cg, cmp(&x, LLVMIntSGT, sub(&x, i, o),
						      str_sload(cg, len)));
	str_sstore(cg, first, o);
	LLVMValueRef whole = str_and1(cg, i, k64(&x, ~(uint64_t)1));
	str_sstore(cg, len, LLVMBuildAdd(cg->b, sub(&x, whole, o),
					 str_sel(cg, z, k64(&x, 2), k64(&x, 0)), ""));
	str_end_if(cg, wins);
	str_sstore(cg, open, none);
	str_end_if(cg, closes);
	LLVMBuildBr(cg->b, join);
	LLVMPositionBuilderAtEnd(cg->b, join);
	str_body_end(cg, &b);
}

/* an IPv4-mapped (::ffff:a.b.c.d) or -compatible (::a.b.c.d, not :: or ::1) address */
static LLVMValueRef embeds_v4(struct itext *x)
{
	struct cg *cg = x->cg;
	LLVMValueRef head = k64(x, 0); /* bytes 0..9 or'ed */
	for (uint64_t i = 0; i < 10; i++)
		head = LLVMBuildOr(cg->b, head, byte(x, k64(x, i)), "");
	LLVMValueRef b10 = byte(x, k64(x, 10)), b11 = byte(x, k64(x, 11));
	LLVMValueRef ffff = str_eq(cg, str_and1(cg, b10, b11), k64(x, 0xff));
	LLVMValueRef zhead = str_eq(cg, head, k64(x, 0));
	LLVMValueRef z12 = str_eq(cg, LLVMBuildOr(cg->b, b10, b11, ""), k64(x, 0));
	LLVMValueRef mid = LLVMBuildOr(cg->b, LLVMBuildOr(cg->b, byte(x, k64(x, 12)),
							  byte(x, k64(x, 13)), ""),
				       byte(x, k64(x, 14)), "");
	LLVMValueRef v4 = LLVMBuildOr(cg->b, cmp(x, LLVMIntNE, mid, k64(x, 0)),
				      uge(x, byte(x, k64(x, 15)), 2), "");
	return str_and1(cg, zhead, LLVMBuildOr(cg->b, ffff, str_and1(cg, z12, v4), ""));
}

/* runtime/inet.c's v6_text(): groups right to left from the last one
 * written (byte 14, or 10 before an embedded dotted quad), the zero run
 * as "::" when its last group is reached. Step g is the group at byte
 * 14 - 2g. The slot alone is set for inet_ntoa6()'s dotted quad alone. */
static void put_v6(struct itext *in, LLVMValueRef alone)
{
	struct cg *cg = in->cg;
	LLVMValueRef fs = str_slot(cg, k64(in, 0)), ls = str_slot(cg, k64(in, 0));
	zero_run(in, fs, ls, str_slot(cg, k64(in, 0)));
	LLVMValueRef es = str_slot(cg, LLVMBuildZExt(cg->b, embeds_v4(in), cg->i64, ""));
	put_quad(in, es, 12);
	struct str_body b;
	struct itext x;
	LLVMValueRef more[4] = { fs, ls, es, alone };
	if (!body_begin(&x, in, &b, IB_V6, 8, more, 4))
		return;
	LLVMValueRef i = sub(&x, k64(&x, 14), LLVMBuildShl(cg->b, b.i, k64(&x, 1), ""));
	LLVMValueRef first = str_sload(cg, b.v[4]), len = str_sload(cg, b.v[5]);
	LLVMValueRef embed = flag(&x, b.v[6]);
	LLVMValueRef last = str_sel(cg, embed, k64(&x, 10), k64(&x, 14));
	/* the dotted quad alone: nothing else counts */
	LLVMValueRef seen = str_and1(cg, cmp(&x, LLVMIntSLE, i, last), LLVMBuildNot(cg->b,
		str_and1(cg, embed, flag(&x, b.v[7])), ""));
	LLVMValueRef rend = sub(&x, LLVMBuildAdd(cg->b, first, len, ""), k64(&x, 2));
	LLVMValueRef run = str_and1(cg, cmp(&x, LLVMIntSGE, first, k64(&x, 0)),
				    cmp(&x, LLVMIntSLE, rend, last));
	LLVMValueRef at_end = str_and1(cg, run, str_eq(cg, i, rend));
	LLVMValueRef inside = str_and1(cg, run, str_and1(cg, cmp(&x, LLVMIntSGE, i, first),
							 cmp(&x, LLVMIntSLT, i, rend)));
	LLVMValueRef colons = str_and1(cg, seen, at_end);
	LLVMValueRef group = str_and1(cg, seen, LLVMBuildNot(cg->b, LLVMBuildOr(cg->b, at_end,
										 inside, ""), ""));
	put(&x, colons, ':');
	put(&x, colons, ':');
	/* no ':' after the last group, nor before the run's "::" */
	LLVMValueRef sep = str_and1(cg, cmp(&x, LLVMIntULT, i, k64(&x, 14)),
				    cmp(&x, LLVMIntNE, i, sub(&x, first, k64(&x, 2))));
	put(&x, str_and1(cg, group, sep), ':');
	LLVMValueRef v = LLVMBuildOr(cg->b, LLVMBuildShl(cg->b, byte(&x, i), k64(&x, 8), ""),
				     byte(&x, LLVMBuildAdd(cg->b, i, k64(&x, 1), "")), "");
	put_num(&x, group, v, true);
	str_body_end(cg, &b);
}

/* link_ntop(): n (6, 20 or 0) bytes as two hex digits each, ':' between;
 * step j is byte 19 - j */
static void put_link(struct itext *in, LLVMValueRef form)
{
	struct cg *cg = in->cg;
	LLVMValueRef n = str_sel(cg, str_eq(cg, form, k64(in, DCC_INET_ETHER)), k64(in, 6),
				 str_sel(cg, str_eq(cg, form, k64(in, DCC_INET_IB)), k64(in, 20),
					 k64(in, 0)));
	struct str_body b;
	struct itext x;
	LLVMValueRef more[1] = { str_slot(cg, n) };
	if (!body_begin(&x, in, &b, IB_LINK, 20, more, 1))
		return;
	LLVMValueRef k = sub(&x, k64(&x, 19), b.i), c = byte(&x, k);
	store(&x, 0, hexdigit(&x, str_and1(cg, c, k64(&x, 15))));
	store(&x, 1, hexdigit(&x, LLVMBuildLShr(cg->b, c, k64(&x, 4), "")));
	LLVMValueRef keep = cmp(&x, LLVMIntULT, k, str_sload(cg, b.v[4]));
	advance(&x, keep, k64(&x, 2));
	put(&x, str_and1(cg, keep, cmp(&x, LLVMIntNE, k, k64(&x, 0))), ':');
	str_body_end(cg, &b);
}

struct cval cg_inet_string(struct cg *cg, struct cval in)
{
	struct itext x = { .cg = cg, .buf = str_scratch(cg, IN_BUF) };
	LLVMValueRef eight = cg_i64(cg, 8);
	/* the bytes go to scratch, where the loop bodies can index them */
	x.addr = str_scratch(cg, IN_ADDR);
	cg_memop(cg, "llvm.memcpy", x.addr, LLVMBuildGEP2(cg->b, cg->i8, in.v, &eight, 1, ""),
		 (unsigned)in.t->size - 8);
	x.pos = str_slot(cg, k64(&x, IN_BUF - 1));
	x.opq = str_slot(cg, k64(&x, 0));
	str_put_byte(cg, x.buf, k64(&x, IN_BUF - 1), k64(&x, 0));
	LLVMValueRef form = LLVMBuildLoad2(cg->b, cg->i64, in.v, "");
	if (in.t->size == 32) { /* link_ntop() */
		put_link(&x, form);
	} else {
		LLVMBasicBlockRef b4 = cg_block(cg, "inet.t4"), b6 = cg_block(cg, "inet.t6");
		LLVMBasicBlockRef bad = cg_block(cg, "inet.t?"), done = cg_block(cg, "inet.tdone");
		LLVMValueRef sw = LLVMBuildSwitch(cg->b, form, bad, 3);
		LLVMAddCase(sw, k64(&x, DCC_INET_4), b4);
		LLVMAddCase(sw, k64(&x, DCC_INET_6), b6);
		LLVMAddCase(sw, k64(&x, DCC_INET_6A), b6);
		LLVMPositionBuilderAtEnd(cg->b, b4);
		put_quad(&x, str_slot(cg, k64(&x, 1)), 0);
		LLVMBuildBr(cg->b, done);
		LLVMPositionBuilderAtEnd(cg->b, b6);
		put_v6(&x, str_slot(cg, LLVMBuildZExt(cg->b, str_eq(cg, form,
			k64(&x, DCC_INET_6A)), cg->i64, "")));
		LLVMBuildBr(cg->b, done);
		LLVMPositionBuilderAtEnd(cg->b, bad);
		put(&x, NULL, '?');
		LLVMBuildBr(cg->b, done);
		LLVMPositionBuilderAtEnd(cg->b, done);
	}
	/* DTrace writes the text into a string of strsize characters */
	unsigned size = cg->strmax + 1 < IN_TEXT ? cg->strmax + 1 : IN_TEXT;
	LLVMValueRef d = str_scratch(cg, IN_TEXT);
	cg_memop(cg, "llvm.memset", d, NULL, IN_TEXT);
	LLVMValueRef from = str_and1(cg, str_sload(cg, x.pos), k64(&x, IN_BUF - 1));
	str_read(cg, d, k64(&x, size), str_at(cg, x.buf, from));
	return (struct cval){ .v = d, .t = &type_string, .cap = (size + 7) & ~7u };
}
