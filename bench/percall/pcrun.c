// SPDX-License-Identifier: GPL-2.0
/*
 * pcrun: the loader of the hand-written programs of the per-call benchmark.
 *
 *   pcrun [-1] OBJ.bpf.o
 *
 * Loads OBJ, attaches every program by its SEC() name (a "perf_event"
 * program to a CPU-clock event at 997 Hz on each online CPU), prints
 * "ready" on stderr, waits for SIGINT or SIGTERM, then prints the
 * aggregation summed over the CPUs. With -1 it prints "ready" on stdout
 * and exits once attached (bench/startup.sh's start-to-attached time).
 * The maps it prints:
 *   map "counts" (W1): one line "<comm> <count>" per key;
 *   map "hist" (W2):   one line "<bucket> <count>" per non-empty bucket
 *                      (bucket b holds values in [2^(b-1), 2^b)), then
 *                      "total <count>".
 */
#include <linux/perf_event.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define COMM_LEN 16
#define NBUCKETS 64

static volatile sig_atomic_t stopping;

static void on_signal(int sig)
{
	(void)sig;
	stopping = 1;
}

static int print_counts(int fd, int ncpus)
{
	char key[COMM_LEN], next[COMM_LEN];
	__u64 *vals = calloc((size_t)ncpus, sizeof(*vals));
	void *prev = NULL;

	if (!vals)
		return -ENOMEM;
	while (!bpf_map_get_next_key(fd, prev, next)) {
		unsigned long long sum = 0;
		int i;

		memcpy(key, next, sizeof(key));
		prev = key;
		if (bpf_map_lookup_elem(fd, key, vals))
			continue;
		for (i = 0; i < ncpus; i++)
			sum += vals[i];
		printf("%.*s %llu\n", COMM_LEN, key, sum);
	}
	free(vals);
	return 0;
}

static int print_hist(int fd, int ncpus)
{
	__u64 *vals = calloc((size_t)ncpus * NBUCKETS, sizeof(*vals));
	unsigned long long total = 0;
	__u32 zero = 0;
	int b, i;

	if (!vals)
		return -ENOMEM;
	if (bpf_map_lookup_elem(fd, &zero, vals)) {
		free(vals);
		return -errno;
	}
	for (b = 0; b < NBUCKETS; b++) {
		unsigned long long sum = 0;

		for (i = 0; i < ncpus; i++)
			sum += vals[(size_t)i * NBUCKETS + (size_t)b];
		if (sum)
			printf("%d %llu\n", b, sum);
		total += sum;
	}
	printf("total %llu\n", total);
	free(vals);
	return 0;
}

/* A perf_event program on every online CPU at 997 Hz, as profile-997. */
static int attach_profile(struct bpf_program *prog)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 1000000000 / 997,
	};
	long cpu, ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	for (cpu = 0; cpu < ncpu; cpu++) {
		int pfd = (int)syscall(SYS_perf_event_open, &attr, -1, (int)cpu, -1,
				       PERF_FLAG_FD_CLOEXEC);

		if (pfd < 0 || !bpf_program__attach_perf_event(prog, pfd))
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	bool once = argc == 3 && !strcmp(argv[1], "-1");
	const char *path = argv[argc - 1];
	struct bpf_object *obj;
	struct bpf_program *prog;
	struct bpf_map *map;
	int ncpus, err;

	if (argc != 2 && !once) {
		fprintf(stderr, "usage: pcrun [-1] OBJ.bpf.o\n");
		return 2;
	}
	ncpus = libbpf_num_possible_cpus();
	if (ncpus <= 0) {
		fprintf(stderr, "pcrun: cannot count the CPUs\n");
		return 1;
	}
	obj = bpf_object__open_file(path, NULL);
	if (!obj) {
		fprintf(stderr, "pcrun: cannot open %s\n", path);
		return 1;
	}
	err = bpf_object__load(obj);
	if (err) {
		fprintf(stderr, "pcrun: cannot load %s: %s\n", path, strerror(-err));
		return 1;
	}
	bpf_object__for_each_program(prog, obj) {
		bool perf = !strcmp(bpf_program__section_name(prog), "perf_event");

		if (perf ? attach_profile(prog) : !bpf_program__attach(prog)) {
			fprintf(stderr, "pcrun: cannot attach %s: %s\n", bpf_program__name(prog),
				strerror(errno));
			return 1;
		}
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (once) {
		printf("ready\n");
		return 0;
	}
	fprintf(stderr, "ready\n");
	while (!stopping)
		pause();

	err = 0;
	map = bpf_object__find_map_by_name(obj, "counts");
	if (map)
		err = print_counts(bpf_map__fd(map), ncpus);
	map = bpf_object__find_map_by_name(obj, "hist");
	if (map && !err)
		err = print_hist(bpf_map__fd(map), ncpus);
	if (err)
		fprintf(stderr, "pcrun: cannot read the maps: %s\n", strerror(-err));
	/* links and programs go away with the process */
	return err ? 1 : 0;
}
