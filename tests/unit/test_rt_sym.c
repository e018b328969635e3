/*
 * Stacks and symbols: kernel addresses named through /proc/kallsyms (a
 * symbol picked from it here), user addresses named through this very test
 * process's maps and ELF symbols; trace(), printf %a %A %k, and stack keys.
 */
#include <criterion/criterion.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <libgen.h>
#include <stdarg.h>
#include <unistd.h>
#include "unit/rt_build.h"

static char kname[256];
static uint64_t kaddr;
static char exe[256];

/* A kernel text symbol alone at its address with 0x40 bytes before the next. */
static void pick_ksym(void)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], name[256], prev[256] = "";
	unsigned long long a, pa = 0;
	int pshared = 1;
	char type;

	cr_assert_not_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &a, &type, name) != 3 || !strchr("TtWw", type))
			continue;
		if (a == pa) {
			pshared = 1;
			continue;
		}
		if (pa && !pshared && a >= pa + 0x40 && !strchr(prev, '.') && !strchr(line, '[')) {
			kaddr = pa;
			strcpy(kname, prev);
			break;
		}
		pa = a;
		pshared = 0;
		strcpy(prev, name);
	}
	fclose(f);
	if (!kaddr)
		cr_skip_test("no kernel symbol addresses (not root?)");
}

__attribute__((noinline)) int rt_sym_probe_fn(int x)
{
	return x * 3 + 1;
}

static void setup(void)
{
	char path[256];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);

	cr_assert_gt(n, 0);
	path[n] = '\0';
	strcpy(exe, basename(path));
}

TestSuite(rt_sym, .init = setup);

static void feed(struct rtt *t, struct rec *r)
{
	cr_assert_eq(dcc_runtime__handle_record(t->rt, r->buf, r->size), 0, "%s", rtt_err(t));
}

Test(rt_sym, kernel_symbols)
{
	struct rtt t;
	struct rec r;
	struct mb b;
	uint32_t o1, o2, o3, o4, o5;
	char want[2048];

	pick_ksym();
	mb_init(&b);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_TRACE, NULL);
	o1 = mb_field(&b, DCC_K_SYM, 8, 0, "sym");
	mb_action(&b, DCC_ACT_TRACE, NULL);
	o2 = mb_field(&b, DCC_K_MOD, 8, 0, "mod");
	mb_action(&b, DCC_ACT_PRINTF, "|%a|%a|%-24a|\n");
	o3 = mb_int(&b, 8, 0);
	mb_int(&b, 8, 0);
	mb_int(&b, 8, 0);
	mb_action(&b, DCC_ACT_TRACE, NULL);
	o4 = mb_field(&b, DCC_K_STACK, 32, 0, "stack");
	mb_action(&b, DCC_ACT_PRINTF, "%k");
	o5 = mb_field(&b, DCC_K_STACK, 16, 0, "stack");
	cr_assert_eq(rtt_open(&t, &b, true, NULL, 0), 0, "%s", rtt_err(&t));
	rec_init(&r, &b, 1, 9, 0);
	rec_int(&r, o1, kaddr + 4);
	rec_int(&r, o2, kaddr);
	rec_int(&r, o3, kaddr + 0x10);
	rec_int(&r, o3 + 8, kaddr);
	rec_int(&r, o3 + 16, 0x1000); /* below every symbol */
	rec_int(&r, o4, kaddr);
	rec_int(&r, o4 + 8, kaddr + 5);
	rec_int(&r, o4 + 24, kaddr); /* after the 0: not a frame */
	rec_int(&r, o5, kaddr + 1);
	rec_int(&r, o5 + 8, kaddr + 2);
	feed(&t, &r);
	snprintf(want, sizeof(want),
		 "  %-50s  %-50s|vmlinux`%s+0x10|vmlinux`%s|%-24s|\n"
		 "\n%14svmlinux`%s\n%14svmlinux`%s+0x5\n"
		 "\n%14svmlinux`%s+0x1\n%14svmlinux`%s+0x2\n",
		 fmt("vmlinux`%s", kname), "vmlinux", kname, kname, "0x1000",
		 "", kname, "", kname, "", kname, "", kname);
	cr_assert_str_eq(rtt_out(&t), want);
	rtt_close(&t);
}

Test(rt_sym, stackindent_and_frame_width)
{
	const char *x[] = { "stackindent=2" };
	struct rtt t;
	struct rec r;
	struct mb b;
	uint32_t o;

	pick_ksym();
	mb_init(&b);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_PRINTF, "%-30k|");
	o = mb_field(&b, DCC_K_STACK, 8, 0, "stack");
	cr_assert_eq(rtt_open(&t, &b, true, x, 1), 0, "%s", rtt_err(&t));
	rec_init(&r, &b, 1, 9, 0);
	rec_int(&r, o, kaddr + 0x20);
	feed(&t, &r);
	cr_assert_str_eq(rtt_out(&t), fmt("\n  %-30s\n|", fmt("vmlinux`%s+0x20", kname)));
	rtt_close(&t);
}

/* usym, uaddr, umod, a ustack (one frame here, one mapped nowhere) and %A
 * of rt_sym_probe_fn's address plus small offsets, as this process's. */
static void user_symbols(const char *const *x, int nx, const char *want)
{
	uint64_t pc = (uint64_t)(uintptr_t)&rt_sym_probe_fn, pid = getpid();
	struct rtt t;
	struct rec r;
	struct mb b;
	uint32_t o1, o2, o3, o4, o5;

	cr_assert_eq(rt_sym_probe_fn(1), 4);
	mb_init(&b);
	mb_clause(&b);
	mb_action(&b, DCC_ACT_TRACE, NULL);
	o1 = mb_field(&b, DCC_K_USYM, 16, 0, "usym");
	mb_action(&b, DCC_ACT_TRACE, NULL);
	o2 = mb_field(&b, DCC_K_UADDR, 16, 0, "uaddr");
	mb_action(&b, DCC_ACT_TRACE, NULL);
	o3 = mb_field(&b, DCC_K_UMOD, 16, 0, "umod");
	mb_action(&b, DCC_ACT_TRACE, NULL);
	o4 = mb_field(&b, DCC_K_USTACK, 32, 0, "ustack");
	mb_action(&b, DCC_ACT_PRINTF, "|%A|%A|\n");
	o5 = mb_field(&b, DCC_K_UADDR, 16, 0, "uaddr");
	mb_int(&b, 8, 0);
	cr_assert_eq(rtt_open(&t, &b, true, x, nx), 0, "%s", rtt_err(&t));
	dcc_runtime__set_target(t.rt, (int)pid);
	rec_init(&r, &b, 1, 9, 0);
	rec_int(&r, o1, pid);
	rec_int(&r, o1 + 8, pc + 2);
	rec_int(&r, o2, pid);
	rec_int(&r, o2 + 8, pc + 3);
	rec_int(&r, o3, pid);
	rec_int(&r, o3 + 8, pc);
	rec_int(&r, o4, pid);
	rec_int(&r, o4 + 8, pc);
	rec_int(&r, o4 + 16, 0x10); /* mapped nowhere */
	rec_int(&r, o5, pid);
	rec_int(&r, o5 + 8, pc + 1);
	rec_int(&r, o5 + 16, pc + 4); /* bare address: $target's */
	feed(&t, &r);
	cr_assert_str_eq(rtt_out(&t), want);
	rtt_close(&t);
}

Test(rt_sym, user_symbols_of_this_process)
{
	char want[2048];

	snprintf(want, sizeof(want),
		 "  %-50s  %-50s  %-50s\n%14s%s`rt_sym_probe_fn\n%14s0x10\n"
		 "|%s`rt_sym_probe_fn+0x1|%s`rt_sym_probe_fn+0x4|\n",
		 fmt("%s`rt_sym_probe_fn", exe), fmt("%s`rt_sym_probe_fn+0x3", exe), exe,
		 "", exe, "", exe, exe);
	user_symbols(NULL, 0, want);
}

/* The start of the mapping of this process holding addr, from its maps. */
static uint64_t map_start(uint64_t addr)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long long lo, hi, found = 0;
	char line[512];

	cr_assert_not_null(f);
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx-%llx", &lo, &hi) == 2 && addr >= lo && addr < hi)
			found = lo;
	fclose(f);
	cr_assert_neq(found, 0);
	return found;
}

Test(rt_sym, noresolve_names_object_and_mapping_offset)
{
	/* obj:0xoff, off from the start of the mapping; usym() where the symbol
	 * starts; umod unchanged; unmapped addresses bare */
	const char *x[] = { "noresolve" };
	uint64_t pc = (uint64_t)(uintptr_t)&rt_sym_probe_fn, off = pc - map_start(pc);
	char want[2048];

	snprintf(want, sizeof(want),
		 "  %-50s  %-50s  %-50s\n%14s%s:0x%llx\n%14s0x10\n|%s:0x%llx|%s:0x%llx|\n",
		 fmt("%s:0x%llx", exe, (unsigned long long)off),
		 fmt("%s:0x%llx", exe, (unsigned long long)off + 3), exe, "", exe,
		 (unsigned long long)off, "", exe, (unsigned long long)off + 1, exe,
		 (unsigned long long)off + 4);
	user_symbols(x, 1, want);
}

Test(rt_sym, stack_keys)
{
	int ncpu = libbpf_num_possible_cpus(), fd;
	uint64_t key[2][2], *v = calloc(ncpu, 8);
	struct rtt t;
	struct mb b;

	pick_ksym();
	mb_init(&b);
	mb_agg(&b, "", "m", DCC_AGG_COUNT, 8);
	mb_key(&b, DCC_K_STACK, 16, 0);
	cr_assert_eq(rtt_open(&t, &b, false, NULL, 0), 0);
	fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_HASH, "t_stk", 16, 8, 8, NULL);
	cr_assert_geq(fd, 0);
	key[0][0] = kaddr + 1;
	key[0][1] = 0;
	key[1][0] = kaddr + 8;
	key[1][1] = kaddr;
	v[0] = 5;
	bpf_map_update_elem(fd, key[0], v, BPF_ANY);
	v[0] = 2;
	bpf_map_update_elem(fd, key[1], v, BPF_ANY);
	dcc_runtime__set_agg_fd(t.rt, 0, fd);
	dcc_runtime__print_aggs(t.rt);
	cr_assert_str_eq(rtt_out(&t),
			 fmt("\n\n%14svmlinux`%s+0x8\n%14svmlinux`%s\n %16d\n"
			     "\n%14svmlinux`%s+0x1\n %16d\n",
			     "", kname, "", kname, 2, "", kname, 5));
	close(fd);
	free(v);
	rtt_close(&t);
}
