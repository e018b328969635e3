/*
 * udp_closed PORT N: N datagrams of 37 bytes to 127.0.0.1:PORT, where
 * nothing listens: the kernel drops each on receive (no socket) and
 * answers with an ICMP port unreachable.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	struct sockaddr_in to = { .sin_family = AF_INET,
				  .sin_port = htons((uint16_t)atoi(argv[1])) };
	char buf[37] = "a datagram of exactly 37 bytes ......";
	int n = atoi(argv[2]), fd = socket(AF_INET, SOCK_DGRAM, 0);

	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0)
		return 1;
	for (int i = 0; i < n; i++)
		if (sendto(fd, buf, sizeof(buf), 0, (struct sockaddr *)&to, sizeof(to)) !=
		    sizeof(buf))
			return 1;
	return 0;
}
