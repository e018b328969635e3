/*
 * The shapes the ip, tcp and udp providers share, in DTrace's form:
 * pktinfo_t, csinfo_t, ipinfo_t, ifinfo_t, ipv4info_t and ipv6info_t, translated
 * through CO-RE from the socket buffer and the socket the kernel's
 * tracepoints pass (dcc/sema/sema_net.c maps them: arg0 is the packet's
 * struct sk_buff, or 0 where the tracepoint has none, arg1 the struct sock,
 * or 0 for the packet's own).
 *
 * The IP header is read at the packet's network header; its version and
 * header length are the first byte's two halves (read whole: they are
 * bitfields in the kernel's struct iphdr). The address strings are
 * inet_ntop()'s, so they print with %s as DTrace's strings do. IPv6
 * extension headers are not walked: the upper header is taken to follow
 * the fixed 40 bytes.
 */

typedef int zoneid_t;
typedef int netstackid_t;

typedef struct pktinfo {
	uintptr_t pkt_addr;	/* the struct sk_buff, or 0 */
} pktinfo_t;

typedef struct csinfo {
	uintptr_t cs_addr;	/* the struct sock, or 0 */
	uint64_t cs_cid;	/* connection id: the struct sock's address */
	pid_t cs_pid;		/* the process: unknown in the network stack, 0 */
	zoneid_t cs_zoneid;	/* Linux has no zones: 0 */
} csinfo_t;

typedef struct ipinfo {
	uint8_t ip_ver;		/* 4 or 6 */
	uint32_t ip_plength;	/* payload bytes (after the IP header) */
	string ip_saddr;	/* source address */
	string ip_daddr;	/* destination address */
} ipinfo_t;

typedef struct ifinfo {
	string if_name;		/* interface name, e.g. "lo" */
	int8_t if_local;	/* 1 for the loopback interface */
	netstackid_t if_ipstack;/* the network namespace's inode number */
	uintptr_t if_addr;	/* the struct net_device */
} ifinfo_t;

typedef struct ipv4info {
	uint8_t ipv4_ver;	/* 4 */
	uint8_t ipv4_ihl;	/* header length, bytes */
	uint8_t ipv4_tos;	/* type of service */
	uint16_t ipv4_length;	/* total length, bytes */
	uint16_t ipv4_ident;	/* identification */
	uint8_t ipv4_flags;	/* IP flags (the fragment offset field's top 3 bits) */
	uint16_t ipv4_offset;	/* fragment offset, bytes */
	uint8_t ipv4_ttl;	/* time to live */
	uint8_t ipv4_protocol;	/* next protocol (IPPROTO_*) */
	string ipv4_protostr;	/* its name */
	uint16_t ipv4_checksum;	/* header checksum */
	ipaddr_t ipv4_src;	/* source address */
	ipaddr_t ipv4_dst;	/* destination address */
	string ipv4_saddr;	/* source address, text */
	string ipv4_daddr;	/* destination address, text */
	uintptr_t ipv4_hdr;	/* the header */
} ipv4info_t;

/* IPv6's fixed header. As DTrace, ip:::send and receive pass both
 * ipv4info_t (args[4]) and this (args[5]); only the one of the packet's
 * version (ipinfo_t's ip_ver) describes it. */
typedef struct ipv6info {
	uint8_t ipv6_ver;	/* 6 */
	uint8_t ipv6_tclass;	/* traffic class */
	uint32_t ipv6_flow;	/* flow label (20 bits) */
	uint16_t ipv6_plen;	/* payload length, bytes */
	uint8_t ipv6_nexthdr;	/* next header (IPPROTO_*) */
	string ipv6_nextstr;	/* its name */
	uint8_t ipv6_hlim;	/* hop limit */
	in6_addr_t *ipv6_src;	/* source address */
	in6_addr_t *ipv6_dst;	/* destination address */
	string ipv6_saddr;	/* source address, text */
	string ipv6_daddr;	/* destination address, text */
	uintptr_t ipv6_hdr;	/* the header */
} ipv6info_t;

inline int IPPROTO_IP = 0;
inline int IPPROTO_ICMP = 1;
inline int IPPROTO_TCP = 6;
inline int IPPROTO_UDP = 17;
inline int IPPROTO_IPV6 = 41;
inline int IPPROTO_ICMPV6 = 58;

translator pktinfo_t < struct sk_buff *S > {
	pkt_addr = (uintptr_t)S;
};

translator csinfo_t < struct sock *S > {
	cs_addr = (uintptr_t)S;
	cs_cid = (uint64_t)S;
	cs_pid = 0;
	cs_zoneid = 0;
};

/* the packet's IP header, its version and its header length in bytes */
translator ipinfo_t < struct sk_buff *S > {
	ip_ver = *(uint8_t *)(S->head + S->network_header) >> 4;
	ip_plength = (*(uint8_t *)(S->head + S->network_header) >> 4) == 6 ?
	    ntohs(((struct ipv6hdr *)(S->head + S->network_header))->payload_len) :
	    ntohs(((struct iphdr *)(S->head + S->network_header))->tot_len) -
	    (*(uint8_t *)(S->head + S->network_header) & 0xf) * 4;
	ip_saddr = inet_ntop((*(uint8_t *)(S->head + S->network_header) >> 4) == 6 ? AF_INET6 : AF_INET,
	    (*(uint8_t *)(S->head + S->network_header) >> 4) == 6 ?
	    (void *)&((struct ipv6hdr *)(S->head + S->network_header))->saddr :
	    (void *)&((struct iphdr *)(S->head + S->network_header))->saddr);
	ip_daddr = inet_ntop((*(uint8_t *)(S->head + S->network_header) >> 4) == 6 ? AF_INET6 : AF_INET,
	    (*(uint8_t *)(S->head + S->network_header) >> 4) == 6 ?
	    (void *)&((struct ipv6hdr *)(S->head + S->network_header))->daddr :
	    (void *)&((struct iphdr *)(S->head + S->network_header))->daddr);
};

/* a socket's addresses where no packet is at hand (tcp:::state-change):
 * the source is the local end */
translator ipinfo_t < struct sock *S > {
	ip_ver = S->__sk_common.skc_family == AF_INET6 ? 6 : 4;
	ip_plength = 0;
	ip_saddr = inet_ntop(S->__sk_common.skc_family == AF_INET6 ? AF_INET6 : AF_INET,
	    S->__sk_common.skc_family == AF_INET6 ? (void *)&S->__sk_common.skc_v6_rcv_saddr :
	    (void *)&S->__sk_common.skc_rcv_saddr);
	ip_daddr = inet_ntop(S->__sk_common.skc_family == AF_INET6 ? AF_INET6 : AF_INET,
	    S->__sk_common.skc_family == AF_INET6 ? (void *)&S->__sk_common.skc_v6_daddr :
	    (void *)&S->__sk_common.skc_daddr);
};

translator ifinfo_t < struct net_device *D > {
	if_name = D == 0 ? "<unknown>" : stringof(D->name);
	if_local = D != 0 && (D->flags & 0x8) != 0; /* IFF_LOOPBACK */
	if_ipstack = D == 0 ? 0 : D->nd_net.net->ns.inum;
	if_addr = (uintptr_t)D;
};

translator ipv4info_t < struct iphdr *H > {
	ipv4_ver = *(uint8_t *)H >> 4;
	ipv4_ihl = (*(uint8_t *)H & 0xf) * 4;
	ipv4_tos = H->tos;
	ipv4_length = ntohs(H->tot_len);
	ipv4_ident = ntohs(H->id);
	ipv4_flags = ntohs(H->frag_off) >> 13;
	ipv4_offset = (ntohs(H->frag_off) & 0x1fff) * 8;
	ipv4_ttl = H->ttl;
	ipv4_protocol = H->protocol;
	ipv4_protostr = H->protocol == 6 ? "TCP" : H->protocol == 17 ? "UDP" :
	    H->protocol == 1 ? "ICMP" : H->protocol == 58 ? "ICMPV6" : "<unknown>";
	ipv4_checksum = ntohs(H->check);
	ipv4_src = H->saddr;
	ipv4_dst = H->daddr;
	ipv4_saddr = inet_ntop(AF_INET, &H->saddr);
	ipv4_daddr = inet_ntop(AF_INET, &H->daddr);
	ipv4_hdr = (uintptr_t)H;
};

/* The version, traffic class and flow label share the first four bytes
 * (4, 8 and 20 bits); read as bytes, the kernel's struct has bitfields. */
translator ipv6info_t < struct ipv6hdr *H > {
	ipv6_ver = *(uint8_t *)H >> 4;
	ipv6_tclass = (*(uint8_t *)H & 0xf) << 4 | *((uint8_t *)H + 1) >> 4;
	ipv6_flow = (*((uint8_t *)H + 1) & 0xf) << 16 | *((uint8_t *)H + 2) << 8 |
	    *((uint8_t *)H + 3);
	ipv6_plen = ntohs(H->payload_len);
	ipv6_nexthdr = H->nexthdr;
	ipv6_nextstr = H->nexthdr == 6 ? "TCP" : H->nexthdr == 17 ? "UDP" :
	    H->nexthdr == 58 ? "ICMPV6" : H->nexthdr == 0 ? "HOPOPTS" : "<unknown>";
	ipv6_hlim = H->hop_limit;
	ipv6_src = (in6_addr_t *)&H->saddr;
	ipv6_dst = (in6_addr_t *)&H->daddr;
	ipv6_saddr = inet_ntop(AF_INET6, &H->saddr);
	ipv6_daddr = inet_ntop(AF_INET6, &H->daddr);
	ipv6_hdr = (uintptr_t)H;
};

/* the packet (arg0) and the socket (arg1, or the packet's own) of a
 * network probe, its IP version, upper protocol and upper header */
inline uintptr_t __dcc_net_skb = arg0;
inline uintptr_t __dcc_net_sk = arg1 != 0 ? arg1 : (uintptr_t)((struct sk_buff *)arg0)->sk;
inline int __dcc_net_ipver = *(uint8_t *)(((struct sk_buff *)arg0)->head +
    ((struct sk_buff *)arg0)->network_header) >> 4;
inline int __dcc_net_proto = __dcc_net_ipver == 6 ?
    ((struct ipv6hdr *)(((struct sk_buff *)arg0)->head +
     ((struct sk_buff *)arg0)->network_header))->nexthdr :
    __dcc_net_ipver == 4 ? ((struct iphdr *)(((struct sk_buff *)arg0)->head +
     ((struct sk_buff *)arg0)->network_header))->protocol : -1;
inline uintptr_t __dcc_net_upper = (uintptr_t)((struct sk_buff *)arg0)->head +
    ((struct sk_buff *)arg0)->network_header +
    (__dcc_net_ipver == 6 ? 40 : (*(uint8_t *)(((struct sk_buff *)arg0)->head +
     ((struct sk_buff *)arg0)->network_header) & 0xf) * 4);

/* filters: an IPv4 or IPv6 packet (the skb's protocol, ETH_P_IP or
 * ETH_P_IPV6 in network order) */
inline int __dcc_ip_pkt = ((struct sk_buff *)arg0)->protocol == htons(0x0800) ||
    ((struct sk_buff *)arg0)->protocol == htons(0x86dd);

/* ip:::drop-in and drop-out (skb:kfree_skb): a packet that came in through
 * a device, or one on its way out */
inline int __dcc_ip_drop_in = __dcc_ip_pkt && ((struct sk_buff *)arg0)->skb_iif != 0;
inline int __dcc_ip_drop_out = __dcc_ip_pkt && ((struct sk_buff *)arg0)->skb_iif == 0;

/* args[] of network probes */
inline pktinfo_t *__dcc_net_pktinfo = xlate <pktinfo_t *> ((struct sk_buff *)arg0);
inline csinfo_t *__dcc_net_csinfo = xlate <csinfo_t *> ((struct sock *)__dcc_net_sk);
inline ipinfo_t *__dcc_net_ipinfo = xlate <ipinfo_t *> ((struct sk_buff *)arg0);
inline ipinfo_t *__dcc_net_ipinfo_sk = xlate <ipinfo_t *> ((struct sock *)arg1);
inline ifinfo_t *__dcc_net_ifinfo = xlate <ifinfo_t *> (((struct sk_buff *)arg0)->dev);
inline ipv4info_t *__dcc_net_ipv4info = xlate <ipv4info_t *> ((struct iphdr *)(
    ((struct sk_buff *)arg0)->head + ((struct sk_buff *)arg0)->network_header));
inline ipv6info_t *__dcc_net_ipv6info = xlate <ipv6info_t *> ((struct ipv6hdr *)(
    ((struct sk_buff *)arg0)->head + ((struct sk_buff *)arg0)->network_header));
