/*
 * write_n N: opens /dev/null and calls write(fd, buf, i) for i = 1..N, so the
 * i-th write(2) has arg2 == i and returns i.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 0) : 1;
	static char buf[4096];
	int fd = open("/dev/null", O_WRONLY);

	if (fd < 0 || n > (long)sizeof(buf))
		return 1;
	memset(buf, 'x', sizeof(buf));
	for (long i = 1; i <= n; i++)
		if (write(fd, buf, i) != i)
			return 1;
	return 0;
}
