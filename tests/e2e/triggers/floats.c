/*
 * floats: one write(2) of struct float_vals (floats.h) to /dev/null, so a
 * syscall::write:entry probe can copyin() the values and print them.
 */
#include <fcntl.h>
#include <unistd.h>

#include "floats.h"

int main(void)
{
	static const struct float_vals v = FLOAT_VALS_INIT;
	int fd = open("/dev/null", O_WRONLY);

	if (fd < 0)
		return 1;
	return write(fd, &v, sizeof(v)) == (ssize_t)sizeof(v) ? 0 : 1;
}
