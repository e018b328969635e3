/*
 * IP address types and families for inet_ntoa(), inet_ntoa6() and
 * inet_ntop(), and link types for link_ntop(), as DTrace's library names
 * them (Linux values).
 */
typedef uint32_t ipaddr_t;		/* IPv4 address, network byte order */
typedef struct dcc_in6_addr {
	uint8_t s6_addr[16];		/* IPv6 address, network byte order */
} in6_addr_t;

inline int AF_INET = 2;
inline int AF_INET6 = 10;

inline int ARPHRD_ETHER = 1;
inline int ARPHRD_INFINIBAND = 32;
