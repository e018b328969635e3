/*
 * The destructive actions the runtime performs, fed with synthetic records:
 * system()'s command output in order with printf(), freopen() to a file and
 * back, ftruncate() of the output file; and an object that has one of them
 * without saying it is destructive (the loader asks for -w by that flag).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include "helpers.h"
#include "unit/rt_build.h"

static void base(struct mb *b)
{
	mb_init(b);
	b->flags = DCC_META_F_DESTRUCTIVE;
	mb_probe(b, DCC_PROBE_BEGIN, "dtrace", "", "", "BEGIN");
}

static void feed(struct rtt *t, struct rec *r)
{
	cr_assert_eq(dcc_runtime__handle_record(t->rt, r->buf, r->size), 0, "%s", rtt_err(t));
}

Test(rt_destr, system_output_in_order_with_printf)
{
	struct rtt t;
	struct rec r;
	struct mb b;
	uint32_t o;

	base(&b);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_PRINTF, "one\n");
	mb_action(&b, DCC_ACT_SYSTEM, "echo %d; printf 'x%%s\\n' %s");
	o = mb_int(&b, 4, 1);
	mb_string(&b, 16);
	mb_action(&b, DCC_ACT_PRINTF, "three\n");
	cr_assert_eq(rtt_open(&t, &b, true, NULL, 0), 0, "%s", rtt_err(&t));
	rec_init(&r, &b, 1, DCC_PROBE_BEGIN, 0);
	rec_int(&r, o, 2);
	rec_str(&r, o + 8, "yz");
	feed(&t, &r);
	feed(&t, &r);
	cr_assert_str_eq(rtt_out(&t), "one\n2\nxyz\nthree\none\n2\nxyz\nthree\n");
	cr_assert_str_empty(rtt_err(&t));
	rtt_close(&t);
}

Test(rt_destr, system_after_the_probe_line)
{
	struct rtt t;
	struct rec r;
	struct mb b;

	base(&b);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_SYSTEM, "echo hi");
	cr_assert_eq(rtt_open(&t, &b, false, NULL, 0), 0, "%s", rtt_err(&t));
	rec_init(&r, &b, 1, DCC_PROBE_BEGIN, 0);
	feed(&t, &r);
	cr_assert_str_eq(rtt_out(&t), "CPU     ID                    FUNCTION:NAME\n"
				      "  0      1                           :BEGIN hi\n\n");
	rtt_close(&t);
}

static char *tmp_path(void)
{
	char *p = strdup("/tmp/dcc-rt-destr.XXXXXX");
	int fd = mkstemp(p);

	cr_assert_geq(fd, 0, "mkstemp: %s", strerror(errno));
	close(fd);
	return p;
}

Test(rt_destr, freopen_to_a_file_and_back)
{
	struct rtt t;
	struct rec r;
	struct mb b;
	uint32_t o;
	char *path = tmp_path(), *text;

	base(&b);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_PRINTF, "one\n");
	mb_action(&b, DCC_ACT_FREOPEN, "%s");
	o = mb_string(&b, 64);
	mb_action(&b, DCC_ACT_PRINTF, "two\n");
	mb_action(&b, DCC_ACT_FREOPEN, NULL);
	mb_action(&b, DCC_ACT_PRINTF, "three\n");
	cr_assert_eq(rtt_open(&t, &b, true, NULL, 0), 0, "%s", rtt_err(&t));
	rec_init(&r, &b, 1, DCC_PROBE_BEGIN, 0);
	rec_str(&r, o, path);
	feed(&t, &r);
	feed(&t, &r);
	cr_assert_str_eq(rtt_out(&t), "one\nthree\none\nthree\n");
	text = read_file(path, NULL);
	cr_assert_str_eq(text, "two\ntwo\n"); /* appended */
	free(text);
	rtt_close(&t);
	unlink(path);
	free(path);
}

Test(rt_destr, ftruncate_empties_the_output_file)
{
	struct rtt t;
	struct rec r;
	struct mb b;
	uint32_t o;
	char *path = tmp_path(), *text;

	base(&b);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_FREOPEN, "%s");
	o = mb_string(&b, 64);
	mb_action(&b, DCC_ACT_PRINTF, "gone\n");
	mb_action(&b, DCC_ACT_FTRUNCATE, NULL);
	mb_action(&b, DCC_ACT_PRINTF, "kept\n");
	cr_assert_eq(rtt_open(&t, &b, true, NULL, 0), 0, "%s", rtt_err(&t));
	rec_init(&r, &b, 1, DCC_PROBE_BEGIN, 0);
	rec_str(&r, o, path);
	feed(&t, &r);
	rtt_close(&t); /* closes the file freopen() opened */
	text = read_file(path, NULL);
	cr_assert_str_eq(text, "kept\n");
	free(text);
	unlink(path);
	free(path);
}

Test(rt_destr, unknown_action_kind_is_refused)
{
	struct rtt t;
	struct mb b;

	base(&b);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_FTRUNCATE + 1, NULL);
	cr_assert_neq(rtt_open(&t, &b, true, NULL, 0), 0);
	rtt_close(&t);
}

/* The loader asks for -w by the flag alone: an object that runs a command or
 * writes a file without it is refused before any record. */
Test(rt_destr, unmarked_object_refused)
{
	static const uint32_t kinds[] = { DCC_ACT_SYSTEM, DCC_ACT_FREOPEN, DCC_ACT_FTRUNCATE };
	static const char *const want[] = {
		"dtrun: action 1: system() in an object not marked destructive\n",
		"dtrun: action 1: freopen() in an object not marked destructive\n",
		"dtrun: action 1: ftruncate() in an object not marked destructive\n",
	};
	for (int i = 0; i < 3; i++) {
		struct rtt t;
		struct mb b;

		base(&b);
		b.flags = 0;
		mb_clause(&b);
		mb_action(&b, DCC_ACT_PRINTF, "one\n");
		mb_action(&b, kinds[i], kinds[i] == DCC_ACT_FTRUNCATE ? "" : "x");
		cr_assert_eq(rtt_open(&t, &b, true, NULL, 0), -EBADMSG);
		cr_assert_str_eq(rtt_err(&t), want[i]);
		rtt_close(&t);
	}
}
