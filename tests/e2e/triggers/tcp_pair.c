/*
 * tcp_pair LPORT CPORT: one TCP connection over loopback, from
 * 127.0.0.1:CPORT to a listener on 127.0.0.1:LPORT. The client sends one
 * byte and closes first; the server reads it, sees the end, and closes;
 * then the listener closes. Every port is bound explicitly, so each state
 * change already knows both.
 *
 * tcp_pair BASE 0 REPORT: the ports picked from the pid instead (LPORT =
 * BASE + 2 * (pid % 400), CPORT = LPORT + 1, so that runs in a row do not
 * meet each other's TIME_WAIT sockets) and written to the file REPORT as
 * "lport=N" and "cport=N" lines (tests/vm's cases).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

static int bound(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	int one = 1, fd = socket(AF_INET, SOCK_STREAM, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, (struct sockaddr *)&a, sizeof(a))) {
		perror("tcp_pair: bind");
		exit(1);
	}
	return fd;
}

int main(int argc, char **argv)
{
	if (argc != 3 && argc != 4)
		return 2;
	int lport = atoi(argv[1]), cport = atoi(argv[2]);
	if (argc == 4) {
		FILE *f = fopen(argv[3], "w");

		lport += 2 * (int)(getpid() % 400);
		cport = lport + 1;
		if (!f || fprintf(f, "lport=%d\ncport=%d\n", lport, cport) < 0 || fclose(f))
			return perror("tcp_pair: report"), 1;
	}
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons((uint16_t)lport) };
	char c = 'x';

	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	usleep(100000); /* the tracer attaches while the trigger starts */
	int l = bound(lport);
	if (listen(l, 1))
		return 1;
	int cl = bound(cport);
	if (connect(cl, (struct sockaddr *)&to, sizeof(to)))
		return perror("tcp_pair: connect"), 1;
	int sv = accept(l, NULL, NULL);
	if (sv < 0 || write(cl, &c, 1) != 1 || read(sv, &c, 1) != 1)
		return 1;
	close(cl);
	if (read(sv, &c, 1) != 0)
		return 1;
	close(sv);
	close(l);
	usleep(100000); /* the last ACK */
	return 0;
}
