// SPDX-License-Identifier: GPL-2.0
/*
 * pcstat: statistics of the BPF programs one process holds.
 *
 *   pcstat PID
 *
 * One tab-separated line per program PID has a descriptor of (found through
 * /proc/PID/fdinfo/<fd> "prog_id:" lines, each id once):
 *   id name xlated_insns jited_bytes verified_insns run_cnt run_time_ns
 * run_cnt and run_time_ns only grow while kernel.bpf_stats_enabled is 1.
 */
#include <bpf/bpf.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_PROGS 4096

static int seen(const __u32 *ids, int n, __u32 id)
{
	int i;

	for (i = 0; i < n; i++) {
		if (ids[i] == id)
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static __u32 ids[MAX_PROGS];
	char path[320], line[256];
	struct dirent *de;
	int n = 0, i;
	DIR *dir;

	if (argc != 2) {
		fprintf(stderr, "usage: pcstat PID\n");
		return 2;
	}
	snprintf(path, sizeof(path), "/proc/%s/fdinfo", argv[1]);
	dir = opendir(path);
	if (!dir) {
		perror("pcstat: fdinfo");
		return 1;
	}
	while ((de = readdir(dir)) && n < MAX_PROGS) {
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/fdinfo/%s", argv[1], de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			unsigned int id;

			if (sscanf(line, "prog_id: %u", &id) == 1 && !seen(ids, n, id) &&
			    n < MAX_PROGS)
				ids[n++] = id;
		}
		fclose(f);
	}
	closedir(dir);

	for (i = 0; i < n; i++) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);
		int fd = bpf_prog_get_fd_by_id(ids[i]);

		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		if (!bpf_obj_get_info_by_fd(fd, &info, &len))
			printf("%u\t%s\t%u\t%u\t%u\t%llu\t%llu\n", ids[i],
			       info.name[0] ? info.name : "-", info.xlated_prog_len / 8,
			       info.jited_prog_len, info.verified_insns,
			       (unsigned long long)info.run_cnt,
			       (unsigned long long)info.run_time_ns);
		close(fd);
	}
	return 0;
}
