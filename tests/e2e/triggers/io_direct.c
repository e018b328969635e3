/*
 * io_direct PATH N: writes N 4 KiB blocks to PATH with O_DIRECT (one
 * write(2) each, then fsync), then reads them back with O_DIRECT, so the
 * file's block device sees N * 4096 bytes written and as many read, all
 * issued from this process. Exits 2 if the file system refuses O_DIRECT.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 2 ? strtol(argv[2], NULL, 0) : 1;
	void *buf;

	if (argc < 3 || posix_memalign(&buf, 4096, 4096))
		return 1;
	memset(buf, 'x', 4096);
	unlink(argv[1]);
	int fd = open(argv[1], O_RDWR | O_CREAT | O_DIRECT, 0600);
	if (fd < 0)
		return 2;
	/* allocate the blocks first, so the timed writes only move data */
	if (fallocate(fd, 0, 0, n * 4096) || fsync(fd))
		return 1;
	for (long i = 0; i < n; i++)
		if (pwrite(fd, buf, 4096, i * 4096) != 4096)
			return 1;
	if (fsync(fd))
		return 1;
	for (long i = 0; i < n; i++)
		if (pread(fd, buf, 4096, i * 4096) != 4096)
			return 1;
	close(fd);
	unlink(argv[1]);
	return 0;
}
