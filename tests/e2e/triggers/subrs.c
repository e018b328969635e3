/*
 * subrs: a child process writes 1 byte to /dev/null three times and exits;
 * then this process writes 2 bytes twice and struct subrs_buf (subrs.h)
 * once, so a script can tell the two apart (progenyof()) and copy the
 * buffer in.
 */
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "subrs.h"

int main(void)
{
	static const struct subrs_buf b = SUBRS_BUF_INIT;
	int fd = open("/dev/null", O_WRONLY), ok = 1;

	if (fd < 0)
		return 1;
	pid_t child = fork();
	if (child < 0)
		return 1;
	if (child == 0) {
		for (int i = 0; i < 3; i++)
			ok &= write(fd, "x", 1) == 1;
		_exit(ok ? 0 : 1);
	}
	int status;
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status))
		return 1;
	for (int i = 0; i < 2; i++)
		ok &= write(fd, "xy", 2) == 2;
	ok &= write(fd, &b, sizeof(b)) == (ssize_t)sizeof(b);
	return ok ? 0 : 1;
}
