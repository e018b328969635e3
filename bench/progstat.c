/*
 * progstat: one line per loaded BPF program, tab-separated:
 *   id name type xlated_bytes jited_bytes xlated_insns verified_insns run_cnt run_time_ns
 * (bpftool 7.1 does not show verified_insns). Built by the bench scripts with
 * `cc progstat.c -lbpf`.
 */
#include <bpf/bpf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
	__u32 id = 0;

	while (!bpf_prog_get_next_id(id, &id)) {
		int fd = bpf_prog_get_fd_by_id(id);
		struct bpf_prog_info info;
		__u32 len = sizeof(info);

		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		if (!bpf_obj_get_info_by_fd(fd, &info, &len))
			printf("%u\t%s\t%u\t%u\t%u\t%u\t%u\t%llu\t%llu\n", id,
			       info.name[0] ? info.name : "-", info.type, info.xlated_prog_len,
			       info.jited_prog_len, info.xlated_prog_len / 8, info.verified_insns,
			       (unsigned long long)info.run_cnt, (unsigned long long)info.run_time_ns);
		close(fd);
	}
	return 0;
}
