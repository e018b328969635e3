/*
 * dcc_runtime__poll on a real ring buffer (root): a hand-assembled raw_tp
 * program, run with bpf_prog_test_run, submits records the way dcc's
 * programs do, with and without a wakeup; poll must hand every one of them
 * to the runtime.
 */
#include <criterion/criterion.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>
#include <unistd.h>
#include "unit/rt_build.h"

#define INSN(c, d, s, o, i) ((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), \
						.off = (o), .imm = (i) })
#define ST_W(off, imm) INSN(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, off, imm)
#define ST_DW(off, imm) INSN(BPF_ST | BPF_MEM | BPF_DW, BPF_REG_10, 0, off, imm)
#define MOV_IMM(d, imm) INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, imm)
#define MOV_REG(d, s) INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define ADD_IMM(d, imm) INSN(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, imm)
#define CALL(fn) INSN(BPF_JMP | BPF_CALL, 0, 0, 0, fn)
#define EXIT() INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

/* A program writing one 24-byte record {epid 1, probe 1, cpu 0, value}. */
static int load_writer(int rb, int value, uint64_t rbflags)
{
	struct bpf_insn prog[] = {
		ST_W(-24, 1), ST_W(-20, 1), ST_W(-16, 0), ST_W(-12, 0), ST_DW(-8, value),
		INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_FD, 0, rb),
		INSN(0, 0, 0, 0, 0),
		MOV_REG(BPF_REG_2, BPF_REG_10), ADD_IMM(BPF_REG_2, -24),
		MOV_IMM(BPF_REG_3, 24), MOV_IMM(BPF_REG_4, (int)rbflags),
		CALL(BPF_FUNC_ringbuf_output),
		MOV_IMM(BPF_REG_0, 0), EXIT(),
	};
	char log[4096] = "";
	LIBBPF_OPTS(bpf_prog_load_opts, o, .log_buf = log, .log_size = sizeof(log),
		    .log_level = 1);
	int fd = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "dcc_t_rb", "GPL", prog,
			       sizeof(prog) / sizeof(prog[0]), &o);

	cr_assert_geq(fd, 0, "load: %d\n%s", fd, log);
	return fd;
}

static void run(int prog)
{
	LIBBPF_OPTS(bpf_test_run_opts, o);

	cr_assert_eq(bpf_prog_test_run_opts(prog, &o), 0);
}

Test(rt_poll, drains_records_with_and_without_wakeup)
{
	struct rtt t;
	struct mb b;
	int rb, p1, p2;

	if (geteuid() != 0)
		cr_skip_test("needs root");
	mb_init(&b);
	mb_probe(&b, 1, "dtrace", "", "", "BEGIN");
	mb_clause(&b);
	mb_action(&b, DCC_ACT_PRINTF, "v=%d\n");
	mb_int(&b, 4, 1);
	cr_assert_eq(rtt_open(&t, &b, true, NULL, 0), 0);
	rb = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "dcc_t_rb", 0, 0, 4096, NULL);
	cr_assert_geq(rb, 0);
	cr_assert_eq(dcc_runtime__set_ringbuf_fd(t.rt, rb), 0);
	p1 = load_writer(rb, 7, BPF_RB_NO_WAKEUP);
	p2 = load_writer(rb, 8, 0);

	cr_assert_eq(dcc_runtime__poll(t.rt, 0), 0);
	run(p1);
	run(p1);
	/* no wakeup: the wait times out, the drain still finds both */
	cr_assert_eq(dcc_runtime__poll(t.rt, 10), 2);
	cr_assert_str_eq(rtt_out(&t), "v=7\nv=7\n");
	run(p2);
	run(p1);
	cr_assert_eq(dcc_runtime__poll(t.rt, 1000), 2);
	cr_assert_str_eq(rtt_out(&t), "v=7\nv=7\nv=8\nv=7\n");
	cr_assert_eq(dcc_runtime__poll(t.rt, 0), 0);
	close(p1);
	close(p2);
	rtt_close(&t);
	close(rb);
}
