// SPDX-License-Identifier: GPL-2.0
/*
 * pcring: the loader of the hand-written programs that print (W3 of
 * bench/workloads.sh): pcrun's attach, plus a consumer of the ring buffer
 * map "events" that prints each record as "<pid> <comm> <path>".
 *
 *   pcring [-1] OBJ.bpf.o
 *
 * Prints "ready" on stderr once attached and runs until SIGINT or SIGTERM;
 * with -1 prints "ready" on stdout and exits once attached.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

struct rec {
	unsigned pid;
	char comm[16];
	char path[256];
};

static volatile sig_atomic_t stopping;

static void on_signal(int sig)
{
	(void)sig;
	stopping = 1;
}

static int print_rec(void *ctx, void *data, size_t len)
{
	const struct rec *r = data;

	(void)ctx;
	if (len < sizeof(*r))
		return 0;
	printf("%u %.16s %.256s\n", r->pid, r->comm, r->path);
	return 0;
}

int main(int argc, char **argv)
{
	bool once = argc == 3 && !strcmp(argv[1], "-1");
	struct bpf_object *obj;
	struct bpf_program *prog;
	struct ring_buffer *rb;
	struct bpf_map *map;

	if (argc != 2 && !once) {
		fprintf(stderr, "usage: pcring [-1] OBJ.bpf.o\n");
		return 2;
	}
	obj = bpf_object__open_file(argv[argc - 1], NULL);
	if (!obj || bpf_object__load(obj)) {
		fprintf(stderr, "pcring: cannot load %s\n", argv[argc - 1]);
		return 1;
	}
	map = bpf_object__find_map_by_name(obj, "events");
	rb = map ? ring_buffer__new(bpf_map__fd(map), print_rec, NULL, NULL) : NULL;
	if (!rb) {
		fprintf(stderr, "pcring: no ring buffer map \"events\"\n");
		return 1;
	}
	bpf_object__for_each_program(prog, obj) {
		if (!bpf_program__attach(prog)) {
			fprintf(stderr, "pcring: cannot attach %s: %s\n", bpf_program__name(prog),
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
	while (!stopping) {
		int n = ring_buffer__poll(rb, 10);
		if (n < 0 && n != -EINTR)
			break;
	}
	ring_buffer__consume(rb);
	fflush(stdout);
	ring_buffer__free(rb);
	return 0;
}
