/*
 * tcp_refused PORT CPORT: connect()s from 127.0.0.1:CPORT to 127.0.0.1:PORT,
 * where nothing listens: the kernel answers the SYN with a reset and the
 * connect fails with ECONNREFUSED (exit 0 then, 1 otherwise).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(argv[1])) };
	struct sockaddr_in from = { .sin_family = AF_INET,
				    .sin_port = htons((uint16_t)atoi(argv[2])) };
	int one = 1, fd = socket(AF_INET, SOCK_STREAM, 0);

	to.sin_addr.s_addr = from.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	usleep(100000);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, (struct sockaddr *)&from, sizeof(from)))
		return 1;
	return connect(fd, (struct sockaddr *)&to, sizeof(to)) && errno == ECONNREFUSED ? 0 : 1;
}
