/*
 * Records through the runtime: the probe line and its header, trace() in
 * quiet and non-quiet modes, exit(), the default action, records that do not
 * match the metadata, and option handling.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include "unit/rt_build.h"

#define HEADER "CPU     ID                    FUNCTION:NAME\n"
#define BEGIN_LINE "  0      1                           :BEGIN "

static void base(struct mb *b)
{
	mb_init(b);
	mb_probe(b, DCC_PROBE_BEGIN, "dtrace", "", "", "BEGIN");
	mb_probe(b, DCC_PROBE_END, "dtrace", "", "", "END");
	mb_probe(b, 182, "syscall", "vmlinux", "getppid", "entry");
}

static void feed(struct rtt *t, struct rec *r)
{
	cr_assert_eq(dcc_runtime__handle_record(t->rt, r->buf, r->size), 0, "%s", rtt_err(t));
}

Test(rt_record, probe_line_and_header_once)
{
	struct rtt t;
	struct rec r;
	struct mb b;

	base(&b);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_PRINTF, "hello\n");
	mb_clause(&b);
	mb_action(&b, DCC_ACT_PRINTF, "again");
	cr_assert_eq(rtt_open(&t, &b, false, NULL, 0), 0);
	rec_init(&r, &b, 1, DCC_PROBE_BEGIN, 0);
	feed(&t, &r);
	rec_init(&r, &b, 2, 182, 1);
	feed(&t, &r);
	cr_assert_str_eq(rtt_out(&t), HEADER BEGIN_LINE "hello\n\n"
			 "  1    182                    getppid:entry again\n");
	rtt_close(&t);
}

Test(rt_record, quiet_has_no_probe_line_and_no_newline)
{
	struct rtt t;
	struct rec r;
	struct mb b;

	base(&b);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_PRINTF, "hello");
	cr_assert_eq(rtt_open(&t, &b, true, NULL, 0), 0);
	rec_init(&r, &b, 1, DCC_PROBE_BEGIN, 0);
	feed(&t, &r);
	feed(&t, &r);
	cr_assert_str_eq(rtt_out(&t), "hellohello");
	rtt_close(&t);
}

Test(rt_record, quiet_from_pragma_and_from_x)
{
	const char *x[] = { "quiet" };
	struct rtt t;
	struct rec r;
	struct mb b;

	base(&b);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_PRINTF, "q");
	mb_option(&b, "quiet", NULL);
	cr_assert_eq(rtt_open(&t, &b, false, NULL, 0), 0);
	rec_init(&r, &b, 1, DCC_PROBE_BEGIN, 0);
	feed(&t, &r);
	cr_assert_str_eq(rtt_out(&t), "q");
	cr_assert_str_eq(dcc_runtime__option(t.rt, "quiet"), "");
	cr_assert_null(dcc_runtime__option(t.rt, "rawbytes"));
	rtt_close(&t);

	base(&b);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_PRINTF, "q");
	cr_assert_eq(rtt_open(&t, &b, false, x, 1), 0);
	rec_init(&r, &b, 1, DCC_PROBE_BEGIN, 0);
	feed(&t, &r);
	cr_assert_str_eq(rtt_out(&t), "q");
	rtt_close(&t);
}

Test(rt_record, default_action_prints_the_probe_line)
{
	struct rtt t;
	struct rec r;
	struct mb b;

	base(&b);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_DEFAULT, NULL);
	cr_assert_eq(rtt_open(&t, &b, false, NULL, 0), 0);
	rec_init(&r, &b, 1, 182, 1);
	feed(&t, &r);
	feed(&t, &r);
	cr_assert_str_eq(rtt_out(&t), HEADER "  1    182                    getppid:entry \n"
					    "  1    182                    getppid:entry \n");
	rtt_close(&t);
}

/* trace() of each integer size, signed and unsigned, and a string. */
static void trace_all(struct rtt *t, bool quiet, const char *const *x, int nx)
{
	static const struct { uint32_t size; int sgn; int64_t v; } ints[] = {
		{ 8, 1, -5 }, { 8, 0, -1 }, { 4, 1, -7 }, { 4, 0, -1 }, { 2, 0, 65535 },
		{ 2, 1, -2 }, { 1, 0, 200 }, { 1, 1, -3 },
	};
	uint32_t offs[9];
	struct rec r;
	struct mb b;

	base(&b);
	mb_clause(&b);
	for (int i = 0; i < 8; i++) {
		mb_action(&b, DCC_ACT_TRACE, NULL);
		offs[i] = mb_int(&b, ints[i].size, ints[i].sgn);
	}
	mb_action(&b, DCC_ACT_TRACE, NULL);
	offs[8] = mb_string(&b, 16);
	cr_assert_eq(rtt_open(t, &b, quiet, x, nx), 0, "%s", rtt_err(t));
	rec_init(&r, &b, 1, DCC_PROBE_BEGIN, 0);
	for (int i = 0; i < 8; i++)
		rec_int(&r, offs[i], ints[i].v);
	rec_str(&r, offs[8], "bash");
	feed(t, &r);
}

Test(rt_record, trace_non_quiet_widths)
{
	struct rtt t;

	trace_all(&t, false, NULL, 0);
	cr_assert_str_eq(rtt_out(&t), HEADER BEGIN_LINE
			 "                  -5 18446744073709551615         -7 4294967295"
			 " 65535    -2 200  -3  bash                             \n");
	rtt_close(&t);
}

Test(rt_record, trace_quiet_bare_values)
{
	struct rtt t;

	trace_all(&t, true, NULL, 0);
	cr_assert_str_eq(rtt_out(&t), "-518446744073709551615-7429496729565535-2200-3bash");
	rtt_close(&t);
}

Test(rt_record, trace_classic_widths)
{
	const char *x[] = { "tracefmt=classic" };
	struct rtt t;

	trace_all(&t, false, x, 1);
	/* 64-bit as %16lld, 32-bit as a signed %8d, 16/8-bit read unsigned */
	cr_assert_str_eq(rtt_out(&t), HEADER BEGIN_LINE
			 "               -5               -1       -7       -1 65535 65534"
			 " 200 253  bash                             \n");
	rtt_close(&t);
}

static const char blob[] = "\001\002Ahello, world!!!!\177\200";

#define DUMP "\n             0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f  0123456789abcdef\n" \
	"         0: 01 02 41 68 65 6c 6c 6f 2c 20 77 6f 72 6c 64 21  ..Ahello, world!\n"     \
	"        10: 21 21 21 7f 80                                   !!!..\n"

static void trace_bytes(struct rtt *t, const char *bytes, uint32_t n, bool quiet,
			const char *const *x, int nx)
{
	struct rec r;
	struct mb b;
	uint32_t off;

	base(&b);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_TRACE, NULL);
	off = mb_field(&b, DCC_K_BYTES, n, 0, "struct foo");
	cr_assert_eq(rtt_open(t, &b, quiet, x, nx), 0);
	rec_init(&r, &b, 1, DCC_PROBE_BEGIN, 0);
	memcpy(r.buf + off, bytes, n);
	feed(t, &r);
}

Test(rt_record, trace_bytes_hex_dump)
{
	struct rtt t;

	trace_bytes(&t, blob, sizeof(blob) - 1, false, NULL, 0);
	cr_assert_str_eq(rtt_out(&t), HEADER BEGIN_LINE DUMP "\n");
	rtt_close(&t);
	trace_bytes(&t, blob, sizeof(blob) - 1, true, NULL, 0);
	cr_assert_str_eq(rtt_out(&t), DUMP);
	rtt_close(&t);
}

/* DTrace for Linux dumps traced bytes even when they read as a string */
Test(rt_record, trace_bytes_that_look_like_a_string_are_dumped)
{
	const char *x[] = { "rawbytes" };
	struct rtt t;

	trace_bytes(&t, "hi there\0\0\0\0", 12, false, NULL, 0);
	cr_assert_str_eq(rtt_out(&t), HEADER BEGIN_LINE
			 "\n             0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f  "
			 "0123456789abcdef\n         0: 68 69 20 74 68 65 72 65 00 00 00 00"
			 "              hi there....\n\n");
	rtt_close(&t);
	trace_bytes(&t, "tab\there", 8, true, NULL, 0);
	cr_assert_str_eq(rtt_out(&t),
			 "\n             0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f  "
			 "0123456789abcdef\n         0: 74 61 62 09 68 65 72 65"
			 "                          tab.here\n");
	rtt_close(&t);
	/* a NUL then more bytes: not a string */
	trace_bytes(&t, "ab\0c", 4, true, NULL, 0);
	cr_assert_str_eq(rtt_out(&t),
			 "\n             0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f  "
			 "0123456789abcdef\n         0: 61 62 00 63"
			 "                                      ab.c\n");
	rtt_close(&t);
	/* rawbytes forces the dump */
	trace_bytes(&t, "ok\0\0", 4, true, x, 1);
	cr_assert_str_eq(rtt_out(&t),
			 "\n             0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f  "
			 "0123456789abcdef\n         0: 6f 6b 00 00"
			 "                                      ok..\n");
	rtt_close(&t);
}

Test(rt_record, exit_status)
{
	struct rtt t;
	struct rec r;
	struct mb b;
	uint32_t off;
	int status = -1;

	base(&b);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_PRINTF, "bye\n");
	mb_action(&b, DCC_ACT_EXIT, NULL);
	off = mb_int(&b, 4, 1);
	cr_assert_eq(rtt_open(&t, &b, false, NULL, 0), 0);
	cr_assert_not(dcc_runtime__exited(t.rt, &status));
	cr_assert_eq(status, -1);
	rec_init(&r, &b, 1, DCC_PROBE_BEGIN, 0);
	rec_int(&r, off, 3);
	feed(&t, &r);
	cr_assert(dcc_runtime__exited(t.rt, &status));
	cr_assert_eq(status, 3);
	cr_assert_str_eq(rtt_out(&t), HEADER BEGIN_LINE "bye\n\n");
	/* a second exit() (another CPU's, in the same instant) keeps the first status */
	rec_int(&r, off, 0);
	feed(&t, &r);
	cr_assert(dcc_runtime__exited(t.rt, &status));
	cr_assert_eq(status, 3);
	/* END's exit() replaces it */
	rec_init(&r, &b, 1, DCC_PROBE_END, 0);
	rec_int(&r, off, 5);
	feed(&t, &r);
	cr_assert(dcc_runtime__exited(t.rt, &status));
	cr_assert_eq(status, 5);
	rtt_close(&t);
}

Test(rt_record, bad_records_are_reported_once)
{
	struct rtt t;
	struct rec r;
	struct mb b;

	base(&b);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_PRINTF, "%d\n");
	mb_int(&b, 4, 1);
	cr_assert_eq(rtt_open(&t, &b, true, NULL, 0), 0);
	rec_init(&r, &b, 1, DCC_PROBE_BEGIN, 0);
	r.buf[0] = 9; /* epid 9 */
	cr_assert_eq(dcc_runtime__handle_record(t.rt, r.buf, r.size), -EINVAL);
	cr_assert_eq(dcc_runtime__handle_record(t.rt, r.buf, r.size), -EINVAL);
	r.buf[0] = 0;
	cr_assert_eq(dcc_runtime__handle_record(t.rt, r.buf, r.size), -EINVAL);
	r.buf[0] = 1;
	cr_assert_eq(dcc_runtime__handle_record(t.rt, r.buf, r.size - 1), -EINVAL);
	cr_assert_eq(dcc_runtime__handle_record(t.rt, r.buf, 16), -EINVAL);
	cr_assert_eq(dcc_runtime__handle_record(t.rt, r.buf, 3), -EINVAL);
	cr_assert_str_eq(rtt_out(&t), "");
	cr_assert_str_eq(rtt_err(&t), "dtrun: bad record: unknown epid 9\n"
			 "dtrun: bad record for epid 1 (t.d:1:1): 23 bytes, expected 24\n");
	/* good records still work */
	rec_int(&r, 16, 77);
	feed(&t, &r);
	cr_assert_str_eq(rtt_out(&t), "77\n");
	rtt_close(&t);
}

Test(rt_record, unknown_x_option_is_an_error)
{
	const char *x[] = { "quiet", "foo=1" };
	struct rtt t;
	struct mb b;

	base(&b);
	cr_assert_eq(rtt_open(&t, &b, false, x, 2), -EINVAL);
	cr_assert_null(t.rt);
	cr_assert_str_eq(rtt_err(&t), "dtrun: failed to set -x foo: Invalid option name\n");
	rtt_close(&t);
}

Test(rt_record, bad_option_values)
{
	const char *x1[] = { "aggsortpos=abc" };
	const char *x2[] = { "oformat=xml" };
	struct rtt t;
	struct mb b;

	base(&b);
	cr_assert_eq(rtt_open(&t, &b, false, x1, 1), -EINVAL);
	cr_assert_str_eq(rtt_err(&t),
			 "dtrun: failed to set -x aggsortpos: "
			 "Invalid value for specified option\n");
	rtt_close(&t);
	cr_assert_eq(rtt_open(&t, &b, false, x2, 1), -EINVAL);
	cr_assert_str_eq(rtt_err(&t),
			 "dtrun: failed to set -x oformat=xml: "
			 "Invalid value for specified option\n");
	rtt_close(&t);
}

Test(rt_record, x_overrides_pragma)
{
	const char *x[] = { "strsize=128", "bufsize=8m", "bufsize=16m", "switchrate=10hz" };
	struct rtt t;
	struct mb b;

	base(&b);
	mb_option(&b, "strsize", "128");
	mb_option(&b, "dynvarsize", "2m");
	cr_assert_eq(rtt_open(&t, &b, false, x, 4), 0);
	cr_assert_str_eq(dcc_runtime__option(t.rt, "strsize"), "128");
	cr_assert_str_eq(dcc_runtime__option(t.rt, "dynvarsize"), "2m");
	cr_assert_str_eq(dcc_runtime__option(t.rt, "bufsize"), "16m");
	cr_assert_str_eq(dcc_runtime__option(t.rt, "switchrate"), "10hz");
	cr_assert_null(dcc_runtime__option(t.rt, "aggrate"));
	rtt_close(&t);
}

Test(rt_record, options_fixed_by_the_compiler_cannot_change)
{
	/* the object was compiled with strsize=128 and the default dynvarsize:
	 * a -x may repeat what it holds, never change it */
	static const struct {
		const char *x, *err;
	} cases[] = {
		{ "strsize=512", "dtrun: failed to set -x strsize=512: it is fixed when the script "
				 "is compiled (strsize=128 here): compile with -x strsize=512\n" },
		{ "dynvarsize=4m", "dtrun: failed to set -x dynvarsize=4m: it is fixed when the "
				   "script is compiled (the default here): compile with -x "
				   "dynvarsize=4m\n" },
		{ "cpu=0", "dtrun: failed to set -x cpu=0: not supported (dcc traces every CPU)\n" },
	};
	struct rtt t;
	struct mb b;

	base(&b);
	mb_option(&b, "strsize", "128");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cr_assert_neq(rtt_open(&t, &b, false, &cases[i].x, 1), 0, "%s", cases[i].x);
		cr_assert_str_eq(rtt_err(&t), cases[i].err);
		rtt_close(&t);
	}
}

Test(rt_record, printf_and_trace_in_one_record)
{
	struct rtt t;
	struct rec r;
	struct mb b;
	uint32_t o1, o2;

	base(&b);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_PRINTF, "%s:");
	o1 = mb_string(&b, 16);
	mb_action(&b, DCC_ACT_TRACE, NULL);
	o2 = mb_int(&b, 4, 1);
	cr_assert_eq(rtt_open(&t, &b, false, NULL, 0), 0);
	rec_init(&r, &b, 1, 182, 1);
	rec_str(&r, o1, "ls");
	rec_int(&r, o2, 12);
	feed(&t, &r);
	cr_assert_str_eq(rtt_out(&t), HEADER "  1    182                    getppid:entry ls:"
					    "         12\n");
	rtt_close(&t);
}

static void fault_rec(struct rtt *t, uint32_t epid, uint32_t probe, uint32_t kind, uint32_t pc,
		      uint64_t detail)
{
	struct { struct dcc_rec_hdr h; struct dcc_rec_fault f; } r = {
		{ epid, probe, 0, DCC_REC_F_FAULT }, { kind, pc, detail },
	};

	cr_assert_eq(dcc_runtime__handle_record(t->rt, &r, sizeof(r)), 0);
}

Test(rt_record, fault_records)
{
	struct rtt t;
	struct mb b;

	base(&b);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_PRINTF, "%d %d %d\n");
	mb_int(&b, 8, 1);
	mb_int(&b, 8, 1);
	mb_int(&b, 8, 1);
	cr_assert_eq(rtt_open(&t, &b, false, NULL, 0), 0);
	fault_rec(&t, 1, 182, DCC_FAULT_DIVZERO, 12, 0);
	fault_rec(&t, 1, 182, DCC_FAULT_BADADDR, 40, 0xffff0000);
	fault_rec(&t, 1, DCC_PROBE_BEGIN, DCC_FAULT_BADINDEX, 7, 9);
	fault_rec(&t, 5, DCC_PROBE_END, 99, 0, 0);
	/* a fault prints no probe line, and is never held to the clause's size */
	cr_assert_str_eq(rtt_out(&t), "");
	cr_assert_str_eq(rtt_err(&t),
		"dtrun: error in t.d:1:1 for probe ID 182 (syscall:vmlinux:getppid:entry): "
		"divide-by-zero at BPF pc 12\n"
		"dtrun: error in t.d:1:1 for probe ID 182 (syscall:vmlinux:getppid:entry): "
		"invalid address (0xffff0000) at BPF pc 40\n"
		"dtrun: error in t.d:1:1 for probe ID 1 (dtrace:::BEGIN): "
		"index out of bounds (9) at BPF pc 7\n"
		"dtrun: error in an unknown clause for probe ID 2 (dtrace:::END): "
		"unknown fault 99 at BPF pc 0\n");
	rtt_close(&t);
}

Test(rt_record, setopt_changes_consumer_options)
{
	struct rtt t;
	struct rec r;
	struct mb b;

	base(&b);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_SETOPT, "quiet");
	mb_action(&b, DCC_ACT_PRINTF, "one\n");
	mb_clause(&b);
	mb_action(&b, DCC_ACT_PRINTF, "two\n");
	mb_clause(&b);
	mb_action(&b, DCC_ACT_SETOPT, "quiet=0");
	mb_clause(&b);
	mb_action(&b, DCC_ACT_SETOPT, "nosuchopt=3");
	cr_assert_eq(rtt_open(&t, &b, false, NULL, 0), 0);
	/* the record that sets quiet already printed its probe line */
	rec_init(&r, &b, 1, DCC_PROBE_BEGIN, 0);
	feed(&t, &r);
	rec_init(&r, &b, 2, DCC_PROBE_BEGIN, 0);
	feed(&t, &r);
	rec_init(&r, &b, 3, DCC_PROBE_BEGIN, 0);
	feed(&t, &r);
	rec_init(&r, &b, 2, DCC_PROBE_BEGIN, 0);
	feed(&t, &r);
	cr_assert_str_eq(rtt_out(&t), HEADER BEGIN_LINE "one\n" "two\n" "\n"
			 BEGIN_LINE "two\n\n");
	cr_assert_str_eq(dcc_runtime__option(t.rt, "quiet"), "0");
	rec_init(&r, &b, 4, DCC_PROBE_BEGIN, 0);
	feed(&t, &r);
	cr_assert_str_eq(rtt_err(&t), "dtrun: setopt in t.d:1:1: couldn't set option 'nosuchopt': "
				      "Invalid option name\n");
	rtt_close(&t);
}

Test(rt_record, speculations_commit_and_discard)
{
	struct rtt t;
	struct rec r;
	struct mb b;
	uint32_t off, idoff;

	base(&b);
	mb_clause(&b); /* 1: printf("%d\n", x) under speculate() */
	mb_action(&b, DCC_ACT_PRINTF, "spec %d\n");
	off = mb_int(&b, 4, 1);
	mb_clause(&b); /* 2: commit(id) */
	mb_action(&b, DCC_ACT_COMMIT, NULL);
	idoff = mb_int(&b, 4, 1);
	mb_clause(&b); /* 3: discard(id) */
	mb_action(&b, DCC_ACT_DISCARD, NULL);
	mb_int(&b, 4, 1);
	cr_assert_eq(rtt_open(&t, &b, false, NULL, 0), 0);
	for (int i = 1; i <= 3; i++) {
		rec_init(&r, &b, 1, 182, 1);
		((struct dcc_rec_hdr *)r.buf)->flags = DCC_REC_F_SPEC | (uint32_t)(i == 2 ? 2 : 1)
							       << DCC_REC_SPEC_SHIFT;
		rec_int(&r, off, i);
		feed(&t, &r);
	}
	cr_assert_str_eq(rtt_out(&t), "");
	/* discard(2), then commit(1): 1 and 3 print, in order */
	rec_init(&r, &b, 3, DCC_PROBE_END, 0);
	rec_int(&r, idoff, 2);
	feed(&t, &r);
	rec_init(&r, &b, 2, DCC_PROBE_END, 0);
	rec_int(&r, idoff, 1);
	feed(&t, &r);
	cr_assert_str_eq(rtt_out(&t), HEADER
			 "  1    182                    getppid:entry spec 1\n\n"
			 "  1    182                    getppid:entry spec 3\n\n");
	/* committing again prints nothing more */
	feed(&t, &r);
	cr_assert_str_eq(rtt_err(&t), "");
	rtt_close(&t);
}

Test(rt_record, flowindent)
{
	const char *x[] = { "flowindent" };
	static const uint32_t seq[] = { 10, 20, 21, 11, 30 };
	struct rtt t;
	struct rec r;
	struct mb b;

	mb_init(&b);
	mb_probe(&b, 10, "syscall", "vmlinux", "open", "entry");
	mb_probe(&b, 11, "syscall", "vmlinux", "open", "return");
	mb_probe(&b, 20, "fbt", "vmlinux", "do_sys_open", "entry");
	mb_probe(&b, 21, "fbt", "vmlinux", "do_sys_open", "return");
	mb_probe(&b, 30, "profile", "", "", "tick-1s");
	mb_clause(&b);
	mb_action(&b, DCC_ACT_DEFAULT, NULL);
	cr_assert_eq(rtt_open(&t, &b, false, x, 1), 0);
	for (int i = 0; i < 5; i++) {
		rec_init(&r, &b, 1, seq[i], 0);
		feed(&t, &r);
	}
	cr_assert_str_eq(rtt_out(&t),
		"CPU FUNCTION                                 \n"
		"  0  => open                                  \n"
		"  0    -> do_sys_open                         \n"
		"  0    <- do_sys_open                         \n"
		"  0  <= open                                  \n"
		"  0 | :tick-1s                                \n");
	rtt_close(&t);
}

Test(rt_record, tracemem_always_dumps)
{
	struct rtt t;
	struct rec r;
	struct mb b;
	uint32_t o1, o2;

	base(&b);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_TRACEMEM, NULL);
	o1 = mb_field(&b, DCC_K_BYTES, 8, 0, "void *");
	mb_action(&b, DCC_ACT_TRACEMEM, NULL);
	o2 = mb_field(&b, DCC_K_BYTES, 8, 0, "void *");
	mb_int(&b, 8, 1);
	cr_assert_eq(rtt_open(&t, &b, true, NULL, 0), 0, "%s", rtt_err(&t));
	rec_init(&r, &b, 1, 1, 0);
	rec_str(&r, o1, "hello");
	rec_str(&r, o2, "abcdefgh");
	rec_int(&r, o2 + 8, 3); /* tracemem(p, 8, 3): three bytes */
	feed(&t, &r);
	cr_assert_str_eq(rtt_out(&t),
		"\n             0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f  0123456789abcdef\n"
		"         0: 68 65 6c 6c 6f 00 00 00                          hello...\n"
		"\n             0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f  0123456789abcdef\n"
		"         0: 61 62 63                                         abc\n");
	rtt_close(&t);
}

struct seen {
	int n;
	uint32_t probe[4];
	int64_t ival[4];
	char str[4][32];
};

static struct rtt *cb_rtt;

static void on_rec(void *ctx, const struct dcc_rec_hdr *hdr, const void *rec, size_t size)
{
	struct seen *s = ctx;
	const char *sv;
	size_t sl;

	cr_assert_lt(s->n, 4);
	s->probe[s->n] = hdr->probe_id;
	cr_assert_eq(dcc_runtime__record_arg(cb_rtt->rt, rec, size, 0, 0, NULL, &sv, &sl),
		     DCC_K_STRING);
	snprintf(s->str[s->n], sizeof(s->str[0]), "%.*s", (int)sl, sv);
	cr_assert_eq(dcc_runtime__record_arg(cb_rtt->rt, rec, size, 0, 1, &s->ival[s->n], NULL,
					     NULL), DCC_K_INT);
	cr_assert_eq(dcc_runtime__record_arg(cb_rtt->rt, rec, size, 0, 2, NULL, NULL, NULL),
		     -ENOENT);
	cr_assert_eq(dcc_runtime__record_arg(cb_rtt->rt, rec, size, 5, 0, NULL, NULL, NULL),
		     -ENOENT);
	s->n++;
}

Test(rt_record, records_to_an_application)
{
	struct seen s = { 0 };
	struct rtt t;
	struct rec r;
	struct mb b;
	uint32_t o1, o2, o3;
	int st;

	base(&b);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_PRINTF, "%s %d\n");
	o1 = mb_string(&b, 16);
	o2 = mb_int(&b, 2, 1);
	mb_action(&b, DCC_ACT_EXIT, NULL);
	o3 = mb_int(&b, 4, 1);
	cr_assert_eq(rtt_open(&t, &b, false, NULL, 0), 0);
	cb_rtt = &t;
	dcc_runtime__set_record_fn(t.rt, on_rec, &s);
	rec_init(&r, &b, 1, 182, 0);
	rec_str(&r, o1, "bash");
	rec_int(&r, o2, -2);
	rec_int(&r, o3, 4);
	feed(&t, &r);
	cr_assert_eq(s.n, 1);
	cr_assert_eq(s.probe[0], 182);
	cr_assert_str_eq(s.str[0], "bash");
	cr_assert_eq(s.ival[0], -2);
	/* nothing printed, but exit() still counts */
	cr_assert_str_eq(rtt_out(&t), "");
	cr_assert(dcc_runtime__exited(t.rt, &st));
	cr_assert_eq(st, 4);
	/* back to text */
	dcc_runtime__set_record_fn(t.rt, NULL, NULL);
	feed(&t, &r);
	cr_assert_str_eq(rtt_out(&t),
			 HEADER "  0    182                    getppid:entry bash -2\n\n");
	rtt_close(&t);
}

/* bufpolicy=ring holds each CPU's records until tracing stops; a record's
 * CPU number is data, and one past the machine's CPUs is refused rather
 * than sizing the table (cpu + 1 wraps at 0xffffffff). */
Test(rt_record, ring_policy_holds_records_and_refuses_a_foreign_cpu)
{
	struct rtt t;
	struct rec r;
	struct mb b;

	base(&b);
	mb_option(&b, "quiet", NULL);
	mb_option(&b, "bufpolicy", "ring");
	mb_clause(&b);
	mb_action(&b, DCC_ACT_PRINTF, "held\n");
	cr_assert_eq(rtt_open(&t, &b, true, NULL, 0), 0);
	rec_init(&r, &b, 1, DCC_PROBE_BEGIN, 0xffffffffu);
	cr_assert_eq(dcc_runtime__handle_record(t.rt, r.buf, r.size), -EINVAL);
	rec_init(&r, &b, 1, DCC_PROBE_BEGIN, 1u << 30);
	cr_assert_eq(dcc_runtime__handle_record(t.rt, r.buf, r.size), -EINVAL);
	rec_init(&r, &b, 1, DCC_PROBE_BEGIN, 0);
	feed(&t, &r);
	cr_assert_str_eq(rtt_out(&t), "");
	dcc_runtime__flush_ring(t.rt);
	cr_assert_str_eq(rtt_out(&t), "held\n");
	rtt_close(&t);
}
