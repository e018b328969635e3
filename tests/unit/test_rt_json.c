/*
 * -x oformat=json: records and aggregation rows as JSON Lines, after the
 * schema's header line (docs/json.md), again in each file the output reopens.
 */
#include <criterion/criterion.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <unistd.h>
#include "unit/rt_build.h"

static const char *json[] = { "oformat=json" };

Test(rt_json, record_with_printf_trace_exit)
{
	struct rtt t;
	struct rec r;
	struct mb b;
	uint32_t o1, o2, o3, o4;
	int st;

	mb_init(&b);
	mb_probe(&b, 182, "syscall", "vmlinux", "getppid", "entry");
	mb_clause(&b);
	mb_action(&b, DCC_ACT_PRINTF, "%s \"%d\"\n");
	o1 = mb_string(&b, 16);
	o2 = mb_int(&b, 4, 1);
	mb_action(&b, DCC_ACT_TRACE, NULL);
	o3 = mb_int(&b, 8, 0);
	mb_action(&b, DCC_ACT_TRACE, NULL);
	mb_string(&b, 8);
	mb_action(&b, DCC_ACT_EXIT, NULL);
	o4 = mb_int(&b, 4, 1);
	cr_assert_eq(rtt_open(&t, &b, false, json, 1), 0, "%s", rtt_err(&t));
	rec_init(&r, &b, 1, 182, 1);
	rec_str(&r, o1, "a\tb\\");
	rec_int(&r, o2, -4);
	rec_int(&r, o3, -1);
	rec_str(&r, o3 + 8, "\x01z\xff");
	rec_int(&r, o4, 2);
	cr_assert_eq(dcc_runtime__handle_record(t.rt, r.buf, r.size), 0);
	cr_assert_str_eq(rtt_out(&t),
		"{\"format\":\"dcc-json\",\"version\":1}\n"
		"{\"cpu\":1,\"id\":182,\"probe\":\"syscall:vmlinux:getppid:entry\","
		"\"clause\":\"t.d:1:1\",\"output\":[{\"printf\":\"a\\tb\\\\ \\\"-4\\\"\\n\"},"
		"{\"trace\":18446744073709551615},{\"trace\":\"\\u0001z\\u00ff\"},"
		"{\"exit\":2}]}\n");
	cr_assert(dcc_runtime__exited(t.rt, &st));
	cr_assert_eq(st, 2);
	cr_assert_eq(dcc_runtime__print_aggs(t.rt), 0);
	rtt_close(&t);
}

Test(rt_json, aggregation_rows)
{
	struct rtt t;
	struct mb b;
	int64_t *v, *q;
	char key[24] = "bash";
	int ncpu = libbpf_num_possible_cpus(), f0, f1;

	if (geteuid() != 0)
		cr_skip_test("needs root for BPF maps");
	mb_init(&b);
	mb_agg(&b, "calls", "m0", DCC_AGG_COUNT, 8);
	mb_key(&b, DCC_K_STRING, 16, 0);
	mb_key(&b, DCC_K_INT, 4, 1);
	mb_agg(&b, "", "m1", DCC_AGG_QUANTIZE, 127 * 8);
	cr_assert_eq(rtt_open(&t, &b, false, json, 1), 0);
	f0 = bpf_map_create(BPF_MAP_TYPE_PERCPU_HASH, "t0", 24, 8, 16, NULL);
	f1 = bpf_map_create(BPF_MAP_TYPE_PERCPU_HASH, "t1", 4, 127 * 8, 16, NULL);
	cr_assert(f0 >= 0 && f1 >= 0);
	v = calloc(ncpu, 8);
	v[0] = 12;
	*(int64_t *)(key + 16) = -1;
	bpf_map_update_elem(f0, key, v, BPF_ANY);
	q = calloc(ncpu, 127 * 8);
	q[65] = 3; /* 2..3 */
	uint32_t zero = 0;
	bpf_map_update_elem(f1, &zero, q, BPF_ANY);
	dcc_runtime__set_agg_fd(t.rt, 0, f0);
	dcc_runtime__set_agg_fd(t.rt, 1, f1);
	cr_assert_eq(dcc_runtime__print_aggs(t.rt), 0);
	cr_assert_str_eq(rtt_out(&t),
		"{\"format\":\"dcc-json\",\"version\":1}\n"
		"{\"aggregation\":\"@calls\",\"keys\":[\"bash\",-1],\"value\":12}\n"
		"{\"aggregation\":\"@\",\"keys\":[],\"buckets\":[{\"value\":\"1\",\"count\":0},"
		"{\"value\":\"2\",\"count\":3},{\"value\":\"4\",\"count\":0}]}\n");
	free(v);
	free(q);
	close(f0);
	close(f1);
	rtt_close(&t);
}

/* The header opens each file: once at the start, again after the output is
 * reopened (dtrun -o on SIGHUP), never when nothing follows. */
Test(rt_json, header_once_a_file)
{
	struct rtt t;
	struct rec r;
	struct mb b;

	mb_init(&b);
	mb_probe(&b, 1, "dtrace", "", "", "BEGIN");
	mb_clause(&b);
	mb_action(&b, DCC_ACT_TRACE, NULL);
	uint32_t o = mb_int(&b, 4, 1);
	cr_assert_eq(rtt_open(&t, &b, false, json, 1), 0, "%s", rtt_err(&t));
	rec_init(&r, &b, 1, 1, 0);
	rec_int(&r, o, 7);
	cr_assert_eq(dcc_runtime__handle_record(t.rt, r.buf, r.size), 0);
	cr_assert_eq(dcc_runtime__handle_record(t.rt, r.buf, r.size), 0);
	dcc_runtime__output_reopened(t.rt);
	dcc_runtime__output_reopened(t.rt);
	cr_assert_eq(dcc_runtime__handle_record(t.rt, r.buf, r.size), 0);
	dcc_runtime__output_reopened(t.rt);
	cr_assert_str_eq(rtt_out(&t),
		"{\"format\":\"dcc-json\",\"version\":1}\n"
		"{\"cpu\":0,\"id\":1,\"probe\":\"dtrace:::BEGIN\",\"clause\":\"t.d:1:1\","
		"\"output\":[{\"trace\":7}]}\n"
		"{\"cpu\":0,\"id\":1,\"probe\":\"dtrace:::BEGIN\",\"clause\":\"t.d:1:1\","
		"\"output\":[{\"trace\":7}]}\n"
		"{\"format\":\"dcc-json\",\"version\":1}\n"
		"{\"cpu\":0,\"id\":1,\"probe\":\"dtrace:::BEGIN\",\"clause\":\"t.d:1:1\","
		"\"output\":[{\"trace\":7}]}\n");
	rtt_close(&t);
}
