/*
 * udp_n LPORT CPORT N [6]: N datagrams of 37 bytes from 127.0.0.1:CPORT to
 * a socket bound to 127.0.0.1:LPORT, each received before the next is
 * sent; with "6", over IPv6 between [::1]:CPORT and [::1]:LPORT.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* the loopback address and port of the family in use */
static socklen_t loopback(int v6, int port, struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (v6) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;

		a->sin6_family = AF_INET6;
		a->sin6_port = htons((uint16_t)port);
		a->sin6_addr = in6addr_loopback;
		return sizeof(*a);
	}
	struct sockaddr_in *a = (struct sockaddr_in *)ss;

	a->sin_family = AF_INET;
	a->sin_port = htons((uint16_t)port);
	a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return sizeof(*a);
}

static int bound(int v6, int port)
{
	struct sockaddr_storage a;
	socklen_t len = loopback(v6, port, &a);
	int fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_DGRAM, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&a, len)) {
		perror("udp_n: bind");
		exit(1);
	}
	return fd;
}

int main(int argc, char **argv)
{
	if (argc != 4 && !(argc == 5 && !strcmp(argv[4], "6")))
		return 2;
	int lport = atoi(argv[1]), cport = atoi(argv[2]), n = atoi(argv[3]), v6 = argc == 5;
	struct sockaddr_storage to;
	socklen_t tolen = loopback(v6, lport, &to);
	char buf[37] = "a datagram of exactly 37 bytes ......";

	usleep(100000);
	int r = bound(v6, lport), s = bound(v6, cport);
	for (int i = 0; i < n; i++)
		if (sendto(s, buf, sizeof(buf), 0, (struct sockaddr *)&to, tolen) != sizeof(buf) ||
		    recv(r, buf, sizeof(buf), 0) != sizeof(buf))
			return 1;
	return 0;
}
