/*
 * destr MODE: what the destructive actions' end-to-end tests act on.
 *   signals N   calls getppid() N times, counting the SIGUSR1s it gets, then
 *               prints "signals COUNT"
 *   stop        prints "pid PID", calls getppid() (where the script stops
 *               it), then prints "resumed"
 *   copyout     pwrite()s "0123456789abcdef" to /dev/null (where the script
 *               writes into that buffer), then prints it, its bytes after the
 *               first NUL too
 *   bytes       pwrite()s the 20 bytes 0x00..0x0f then "ABCD" to /dev/null
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t nsig;

static void on_usr1(int sig)
{
	(void)sig;
	nsig++;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int fd = open("/dev/null", O_WRONLY);
	char buf[20];

	if (fd < 0)
		return 1;
	if (!strcmp(mode, "signals")) {
		long n = argc > 2 ? strtol(argv[2], NULL, 0) : 1;

		signal(SIGUSR1, on_usr1);
		for (long i = 0; i < n; i++)
			getppid();
		printf("signals %d\n", (int)nsig);
	} else if (!strcmp(mode, "stop")) {
		printf("pid %d\n", (int)getpid());
		fflush(stdout);
		getppid();
		printf("resumed\n");
	} else if (!strcmp(mode, "copyout")) {
		size_t len;

		memcpy(buf, "0123456789abcdef", 17);
		if (pwrite(fd, buf, 16, 0) != 16)
			return 1;
		len = strlen(buf);
		printf("%s|%s\n", buf, len < 16 ? buf + len + 1 : "");
	} else if (!strcmp(mode, "bytes")) {
		for (int i = 0; i < 16; i++)
			buf[i] = (char)i;
		memcpy(buf + 16, "ABCD", 4);
		if (pwrite(fd, buf, 20, 0) != 20)
			return 1;
	} else {
		return 2;
	}
	return 0;
}
