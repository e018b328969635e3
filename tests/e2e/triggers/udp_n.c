/*
 * udp_n LPORT CPORT N: N datagrams of 37 bytes from 127.0.0.1:CPORT to a
 * socket bound to 127.0.0.1:LPORT, each received before the next is sent.
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
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a))) {
		perror("udp_n: bind");
		exit(1);
	}
	return fd;
}

int main(int argc, char **argv)
{
	if (argc != 4)
		return 2;
	int lport = atoi(argv[1]), cport = atoi(argv[2]), n = atoi(argv[3]);
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons((uint16_t)lport) };
	char buf[37] = "a datagram of exactly 37 bytes ......";

	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	usleep(100000);
	int r = bound(lport), s = bound(cport);
	for (int i = 0; i < n; i++)
		if (sendto(s, buf, sizeof(buf), 0, (struct sockaddr *)&to, sizeof(to)) != sizeof(buf) ||
		    recv(r, buf, sizeof(buf), 0) != sizeof(buf))
			return 1;
	return 0;
}
