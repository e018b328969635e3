/*
 * Aggregation maps for runtime tests (run as root): per-CPU hash maps made
 * here and filled CPU by CPU, string/int keys, and printf-made expectations.
 * Included by one test file each: the state is per executable.
 */
#ifndef DCC_TESTS_RT_AGG_MAPS_H
#define DCC_TESTS_RT_AGG_MAPS_H

#include <criterion/criterion.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int ncpu;
static int fds[16];
static int nfds;

static inline void setup(void)
{
	ncpu = libbpf_num_possible_cpus();
	if (ncpu < 2)
		cr_skip_test("needs two possible CPUs");
	if (geteuid() != 0)
		cr_skip_test("needs root for BPF maps");
}

static inline void teardown(void)
{
	while (nfds > 0)
		close(fds[--nfds]);
}

static inline int mkmap(uint32_t type, uint32_t ksz, uint32_t vsz)
{
	int fd = bpf_map_create(type, "t_agg", ksz, vsz, 256, NULL);

	cr_assert_geq(fd, 0, "bpf_map_create: %d", fd);
	fds[nfds++] = fd;
	return fd;
}

/* Set key's per-CPU values: cpu0 and cpu1 (NULL: zeros), other CPUs zero. */
static inline void put(int fd, const void *key, int nwords, const int64_t *cpu0, const int64_t *cpu1)
{
	int64_t *buf = calloc(ncpu, nwords * 8);

	if (cpu0)
		memcpy(buf, cpu0, nwords * 8);
	if (cpu1)
		memcpy(buf + nwords, cpu1, nwords * 8);
	cr_assert_eq(bpf_map_update_elem(fd, key, buf, BPF_ANY), 0);
	free(buf);
}

static inline void put1(int fd, const void *key, int64_t c0, int64_t c1)
{
	put(fd, key, 1, &c0, &c1);
}

/* A key of a string (16 bytes) and optionally an int slot. */
struct skey {
	char s[16];
	int64_t i;
};

static inline struct skey sk(const char *s, int64_t i)
{
	struct skey k;

	memset(&k, 0, sizeof(k));
	memcpy(k.s, s, strnlen(s, sizeof(k.s)));
	k.i = i;
	return k;
}

static const uint32_t zero_key;

static inline int64_t *buckets(int n)
{
	return calloc(n, sizeof(int64_t));
}

#endif
