/*
 * The tcp and udp providers' shapes in DTrace's form: tcpinfo_t (a TCP
 * header), tcpsinfo_t (a connection, from the struct tcp_sock), tcplsinfo_t
 * (the state before a change), udpinfo_t and udpsinfo_t, after net_ip.d.
 *
 * TCP states are Linux's own numbers (include/net/tcp_states.h), as in
 * DTrace for Linux.
 */

typedef struct tcpinfo {
	uint16_t tcp_sport;	/* source port */
	uint16_t tcp_dport;	/* destination port */
	uint32_t tcp_seq;	/* sequence number */
	uint32_t tcp_ack;	/* acknowledgment number */
	uint8_t tcp_offset;	/* data offset, bytes */
	uint8_t tcp_flags;	/* TH_* flags */
	uint16_t tcp_window;	/* window size */
	uint16_t tcp_checksum;	/* checksum */
	uint16_t tcp_urgent;	/* urgent data pointer */
	uintptr_t tcp_hdr;	/* the header */
} tcpinfo_t;

typedef struct tcpsinfo {
	uintptr_t tcps_addr;	/* the struct sock */
	int tcps_local;		/* both ends on this host (loopback addresses) */
	int tcps_active;	/* opened by connect(): not kept by Linux, 0 */
	uint16_t tcps_lport;	/* local port */
	uint16_t tcps_rport;	/* remote port */
	string tcps_laddr;	/* local address */
	string tcps_raddr;	/* remote address */
	int32_t tcps_state;	/* TCP_STATE_* */
	uint32_t tcps_iss;	/* initial sequence number sent: 0 (not kept) */
	uint32_t tcps_irs;	/* initial sequence number received: 0 (not kept) */
	uint32_t tcps_suna;	/* oldest unacknowledged sequence number */
	uint32_t tcps_smax;	/* highest sequence number sent */
	uint32_t tcps_snxt;	/* next sequence number to send */
	uint32_t tcps_rack;	/* last sequence number acknowledged */
	uint32_t tcps_rnxt;	/* next sequence number expected */
	int32_t tcps_swnd;	/* send window */
	int32_t tcps_snd_ws;	/* send window scale */
	uint32_t tcps_swl1;	/* sequence number of the last window update: 0 */
	uint32_t tcps_swl2;	/* acknowledgment of the last window update */
	int32_t tcps_rwnd;	/* receive window */
	int32_t tcps_rcv_ws;	/* receive window scale */
	uint32_t tcps_cwnd;	/* congestion window, segments */
	uint32_t tcps_cwnd_ssthresh; /* slow start threshold */
	uint32_t tcps_sack_snxt;/* next SACK sequence number: 0 */
	uint32_t tcps_rto;	/* retransmission timeout, jiffies */
	uint32_t tcps_mss;	/* maximum segment size */
	int tcps_retransmit;	/* retransmissions of the head segment */
	uint32_t tcps_rtt;	/* smoothed round-trip time, microseconds */
	uint32_t tcps_rtt_sd;	/* its mean deviation, microseconds */
	uint32_t tcps_irtt;	/* first round-trip time: 0 (not kept) */
} tcpsinfo_t;

typedef struct tcplsinfo {
	int32_t tcps_state;	/* the state before the change */
} tcplsinfo_t;

inline int32_t TCP_STATE_IDLE = 0;
inline int32_t TCP_STATE_ESTABLISHED = 1;
inline int32_t TCP_STATE_SYN_SENT = 2;
inline int32_t TCP_STATE_SYN_RECEIVED = 3;
inline int32_t TCP_STATE_FIN_WAIT_1 = 4;
inline int32_t TCP_STATE_FIN_WAIT_2 = 5;
inline int32_t TCP_STATE_TIME_WAIT = 6;
inline int32_t TCP_STATE_CLOSED = 7;
inline int32_t TCP_STATE_CLOSE_WAIT = 8;
inline int32_t TCP_STATE_LAST_ACK = 9;
inline int32_t TCP_STATE_LISTEN = 10;
inline int32_t TCP_STATE_CLOSING = 11;

inline uint8_t TH_FIN = 0x01;
inline uint8_t TH_SYN = 0x02;
inline uint8_t TH_RST = 0x04;
inline uint8_t TH_PUSH = 0x08;
inline uint8_t TH_ACK = 0x10;
inline uint8_t TH_URG = 0x20;
inline uint8_t TH_ECE = 0x40;
inline uint8_t TH_CWR = 0x80;

/* the flags are the header's byte 13 and the data offset byte 12's high
 * half (bitfields in the kernel's struct tcphdr) */
translator tcpinfo_t < struct tcphdr *T > {
	tcp_sport = ntohs(T->source);
	tcp_dport = ntohs(T->dest);
	tcp_seq = ntohl(T->seq);
	tcp_ack = ntohl(T->ack_seq);
	tcp_offset = (((uint8_t *)T)[12] >> 4) * 4;
	tcp_flags = ((uint8_t *)T)[13];
	tcp_window = ntohs(T->window);
	tcp_checksum = ntohs(T->check);
	tcp_urgent = ntohs(T->urg_ptr);
	tcp_hdr = (uintptr_t)T;
};

translator tcpsinfo_t < struct sock *S > {
	tcps_addr = (uintptr_t)S;
	tcps_local = S->__sk_common.skc_family == AF_INET6 ?
	    S->__sk_common.skc_v6_daddr.in6_u.u6_addr32[3] == htonl(1) &&
	    S->__sk_common.skc_v6_daddr.in6_u.u6_addr32[0] == 0 :
	    (ntohl(S->__sk_common.skc_daddr) >> 24) == 127;
	tcps_active = 0;
	tcps_lport = S->__sk_common.skc_num;
	tcps_rport = ntohs(S->__sk_common.skc_dport);
	tcps_laddr = inet_ntop(S->__sk_common.skc_family == AF_INET6 ? AF_INET6 : AF_INET,
	    S->__sk_common.skc_family == AF_INET6 ? (void *)&S->__sk_common.skc_v6_rcv_saddr :
	    (void *)&S->__sk_common.skc_rcv_saddr);
	tcps_raddr = inet_ntop(S->__sk_common.skc_family == AF_INET6 ? AF_INET6 : AF_INET,
	    S->__sk_common.skc_family == AF_INET6 ? (void *)&S->__sk_common.skc_v6_daddr :
	    (void *)&S->__sk_common.skc_daddr);
	/* the new state in a state change (arg3; sk_state is still the old);
	 * a SYN-ACK's socket is the listener's request socket, in Linux's
	 * TCP_NEW_SYN_RECV (12): SYN_RECEIVED, as DTrace names it */
	tcps_state = arg3 != 0 ? arg3 : S->__sk_common.skc_state == 12 ?
	    TCP_STATE_SYN_RECEIVED : S->__sk_common.skc_state;
	tcps_iss = 0;
	tcps_irs = 0;
	/* the rest is the connection's: a request socket (TCP_NEW_SYN_RECV, 12)
	 * is a struct request_sock, far smaller than a struct tcp_sock, so
	 * its members read as 0 rather than past its end */
	tcps_suna = S->__sk_common.skc_state == 12 ? 0 :
	    ((struct tcp_sock *)S)->snd_una;
	tcps_smax = S->__sk_common.skc_state == 12 ? 0 :
	    ((struct tcp_sock *)S)->snd_nxt;
	tcps_snxt = S->__sk_common.skc_state == 12 ? 0 :
	    ((struct tcp_sock *)S)->snd_nxt;
	tcps_rack = S->__sk_common.skc_state == 12 ? 0 :
	    ((struct tcp_sock *)S)->rcv_wup;
	tcps_rnxt = S->__sk_common.skc_state == 12 ? 0 :
	    ((struct tcp_sock *)S)->rcv_nxt;
	tcps_swnd = S->__sk_common.skc_state == 12 ? 0 :
	    ((struct tcp_sock *)S)->snd_wnd;
	tcps_snd_ws = S->__sk_common.skc_state == 12 ? 0 :
	    ((struct tcp_sock *)S)->rx_opt.snd_wscale;
	tcps_swl1 = 0;
	tcps_swl2 = S->__sk_common.skc_state == 12 ? 0 :
	    ((struct tcp_sock *)S)->snd_wl1;
	tcps_rwnd = S->__sk_common.skc_state == 12 ? 0 :
	    ((struct tcp_sock *)S)->rcv_wnd;
	tcps_rcv_ws = S->__sk_common.skc_state == 12 ? 0 :
	    ((struct tcp_sock *)S)->rx_opt.rcv_wscale;
	tcps_cwnd = S->__sk_common.skc_state == 12 ? 0 :
	    ((struct tcp_sock *)S)->snd_cwnd;
	tcps_cwnd_ssthresh = S->__sk_common.skc_state == 12 ? 0 :
	    ((struct tcp_sock *)S)->snd_ssthresh;
	tcps_sack_snxt = 0;
	tcps_rto = S->__sk_common.skc_state == 12 ? 0 :
	    ((struct inet_connection_sock *)S)->icsk_rto;
	tcps_mss = S->__sk_common.skc_state == 12 ? 0 :
	    ((struct tcp_sock *)S)->mss_cache;
	tcps_retransmit = S->__sk_common.skc_state == 12 ? 0 :
	    ((struct inet_connection_sock *)S)->icsk_retransmits;
	tcps_rtt = S->__sk_common.skc_state == 12 ? 0 :
	    ((struct tcp_sock *)S)->srtt_us >> 3;
	tcps_rtt_sd = S->__sk_common.skc_state == 12 ? 0 :
	    ((struct tcp_sock *)S)->mdev_us >> 2;
	tcps_irtt = 0;
};

translator tcplsinfo_t < int S > {
	tcps_state = S;
};

typedef struct udpinfo {
	uint16_t udp_sport;	/* source port */
	uint16_t udp_dport;	/* destination port */
	uint16_t udp_length;	/* length of header and payload */
	uint16_t udp_checksum;	/* checksum */
	uintptr_t udp_hdr;	/* the header */
} udpinfo_t;

typedef struct udpsinfo {
	uintptr_t udps_addr;	/* the struct sock */
	uint16_t udps_lport;	/* local port */
	uint16_t udps_rport;	/* remote port (0 unless connected) */
	string udps_laddr;	/* local address */
	string udps_raddr;	/* remote address */
} udpsinfo_t;

translator udpinfo_t < struct udphdr *U > {
	udp_sport = ntohs(U->source);
	udp_dport = ntohs(U->dest);
	udp_length = ntohs(U->len);
	udp_checksum = ntohs(U->check);
	udp_hdr = (uintptr_t)U;
};

translator udpsinfo_t < struct sock *S > {
	udps_addr = (uintptr_t)S;
	udps_lport = S->__sk_common.skc_num;
	udps_rport = ntohs(S->__sk_common.skc_dport);
	udps_laddr = inet_ntop(S->__sk_common.skc_family == AF_INET6 ? AF_INET6 : AF_INET,
	    S->__sk_common.skc_family == AF_INET6 ? (void *)&S->__sk_common.skc_v6_rcv_saddr :
	    (void *)&S->__sk_common.skc_rcv_saddr);
	udps_raddr = inet_ntop(S->__sk_common.skc_family == AF_INET6 ? AF_INET6 : AF_INET,
	    S->__sk_common.skc_family == AF_INET6 ? (void *)&S->__sk_common.skc_v6_daddr :
	    (void *)&S->__sk_common.skc_daddr);
};

/* filters: the packet's upper protocol, with a socket for tcp:::send;
 * a TCP socket (inet_sock_set_state also serves SCTP and DCCP); the
 * state-change transitions DTrace names */
inline int __dcc_tcp_pkt = __dcc_ip_pkt && __dcc_net_proto == IPPROTO_TCP &&
    ((struct sk_buff *)arg0)->sk != 0;
inline int __dcc_udp_pkt = __dcc_ip_pkt && __dcc_net_proto == IPPROTO_UDP;
inline int __dcc_tcp_sock = ((struct sock *)arg1)->sk_protocol == IPPROTO_TCP;
inline int __dcc_tcp_conn_req = __dcc_tcp_sock && arg2 == 7 && arg3 == 2;
inline int __dcc_tcp_conn_est = __dcc_tcp_sock && arg2 == 2 && arg3 == 1;
inline int __dcc_tcp_acc_est = __dcc_tcp_sock && arg2 == 3 && arg3 == 1;
inline int __dcc_tcp_refused = ((struct sock *)arg1)->__sk_common.skc_state == 2;

/* args[] of tcp and udp probes */
inline tcpsinfo_t *__dcc_tcp_tcpsinfo = xlate <tcpsinfo_t *> ((struct sock *)__dcc_net_sk);
inline tcpinfo_t *__dcc_tcp_tcpinfo = xlate <tcpinfo_t *> ((struct tcphdr *)__dcc_net_upper);
inline tcplsinfo_t *__dcc_tcp_tcplsinfo = xlate <tcplsinfo_t *> ((int)arg2);
inline udpsinfo_t *__dcc_udp_udpsinfo = xlate <udpsinfo_t *> ((struct sock *)__dcc_net_sk);
inline udpinfo_t *__dcc_udp_udpinfo = xlate <udpinfo_t *> ((struct udphdr *)__dcc_net_upper);

/*
 * tcp:::accept-refused is tcp_send_reset without a socket: the kernel
 * passes the refused SYN, and args[2..4] describe the reset sent back to
 * it, so its source is the SYN's destination. The SYN is read through
 * this stand-in type, which only selects these translators.
 */
struct dcc_refused_syn {
	int dcc_unused;
};

translator ipinfo_t < struct dcc_refused_syn *P > {
	ip_ver = *(uint8_t *)(((struct sk_buff *)P)->head +
	    ((struct sk_buff *)P)->network_header) >> 4;
	ip_plength = 20; /* a reset carries a bare TCP header */
	ip_saddr = xlate <ipinfo_t *> ((struct sk_buff *)P)->ip_daddr;
	ip_daddr = xlate <ipinfo_t *> ((struct sk_buff *)P)->ip_saddr;
};

translator tcpsinfo_t < struct dcc_refused_syn *P > {
	tcps_addr = 0;
	tcps_local = 0;
	tcps_active = 0;
	tcps_lport = ntohs(((struct tcphdr *)__dcc_net_upper)->dest);
	tcps_rport = ntohs(((struct tcphdr *)__dcc_net_upper)->source);
	tcps_laddr = xlate <ipinfo_t *> ((struct sk_buff *)P)->ip_daddr;
	tcps_raddr = xlate <ipinfo_t *> ((struct sk_buff *)P)->ip_saddr;
	tcps_state = TCP_STATE_CLOSED;
	tcps_iss = 0;
	tcps_irs = ntohl(((struct tcphdr *)__dcc_net_upper)->seq);
	tcps_suna = 0;
	tcps_smax = 0;
	tcps_snxt = 0;
	tcps_rack = 0;
	tcps_rnxt = 0;
	tcps_swnd = 0;
	tcps_snd_ws = 0;
	tcps_swl1 = 0;
	tcps_swl2 = 0;
	tcps_rwnd = 0;
	tcps_rcv_ws = 0;
	tcps_cwnd = 0;
	tcps_cwnd_ssthresh = 0;
	tcps_sack_snxt = 0;
	tcps_rto = 0;
	tcps_mss = 0;
	tcps_retransmit = 0;
	tcps_rtt = 0;
	tcps_rtt_sd = 0;
	tcps_irtt = 0;
};

/* the reset: RST|ACK, acknowledging the SYN */
translator tcpinfo_t < struct dcc_refused_syn *P > {
	tcp_sport = ntohs(((struct tcphdr *)__dcc_net_upper)->dest);
	tcp_dport = ntohs(((struct tcphdr *)__dcc_net_upper)->source);
	tcp_seq = 0;
	tcp_ack = ntohl(((struct tcphdr *)__dcc_net_upper)->seq) + 1;
	tcp_offset = 20;
	tcp_flags = TH_RST | TH_ACK;
	tcp_window = 0;
	tcp_checksum = 0;
	tcp_urgent = 0;
	tcp_hdr = 0;
};

inline int __dcc_tcp_acc_refused = arg1 == 0 &&
    (((uint8_t *)__dcc_net_upper)[13] & (TH_SYN | TH_ACK)) == TH_SYN;
inline ipinfo_t *__dcc_tcp_rst_ipinfo = xlate <ipinfo_t *> ((struct dcc_refused_syn *)arg0);
inline tcpsinfo_t *__dcc_tcp_rst_tcpsinfo = xlate <tcpsinfo_t *> ((struct dcc_refused_syn *)arg0);
inline tcpinfo_t *__dcc_tcp_rst_tcpinfo = xlate <tcpinfo_t *> ((struct dcc_refused_syn *)arg0);

/*
 * tcp:::send and receive. A sent segment has its socket (skb->sk): args[3]
 * is the socket's, as above. A received one is seen at netif_receive_skb,
 * before the kernel looks its socket up (so the handshake's SYN and
 * SYN-ACK are seen, which tcp_probe, the established connections' fast
 * path, never sees): args[3] is then the packet's view, the local end its
 * destination, tcps_addr 0, tcps_state 0 (not known yet), tcps_irs a SYN's
 * sequence number and the socket's counters 0. One stand-in type selects
 * this translator for both, so a clause may name both probes.
 */
struct dcc_tcp_seg {
	int dcc_unused;
};

/* the segment's network header, and its address family (the socket's
 * where it has one) */
inline uintptr_t __dcc_net_nh = (uintptr_t)((struct sk_buff *)arg0)->head +
    ((struct sk_buff *)arg0)->network_header;
inline int __dcc_tcp_seg_family = ((struct sk_buff *)arg0)->sk != 0 ?
    (((struct sk_buff *)arg0)->sk->__sk_common.skc_family == AF_INET6 ? AF_INET6 : AF_INET) :
    (*(uint8_t *)__dcc_net_nh >> 4 == 6 ? AF_INET6 : AF_INET);

translator tcpsinfo_t < struct dcc_tcp_seg *P > {
	tcps_addr = (uintptr_t)((struct sk_buff *)P)->sk;
	tcps_local = ((struct sk_buff *)P)->sk != 0 ?
	    xlate <tcpsinfo_t *> (((struct sk_buff *)P)->sk)->tcps_local :
	    xlate <ifinfo_t *> (((struct sk_buff *)P)->dev)->if_local;
	tcps_active = 0;
	tcps_lport = ((struct sk_buff *)P)->sk != 0 ?
	    xlate <tcpsinfo_t *> (((struct sk_buff *)P)->sk)->tcps_lport :
	    ntohs(((struct tcphdr *)__dcc_net_upper)->dest);
	tcps_rport = ((struct sk_buff *)P)->sk != 0 ?
	    xlate <tcpsinfo_t *> (((struct sk_buff *)P)->sk)->tcps_rport :
	    ntohs(((struct tcphdr *)__dcc_net_upper)->source);
	/* one inet_ntop() each: its result cannot be an arm of ?: */
	tcps_laddr = inet_ntop(__dcc_tcp_seg_family, ((struct sk_buff *)P)->sk != 0 ?
	    (__dcc_tcp_seg_family == AF_INET6 ?
	    (void *)&((struct sk_buff *)P)->sk->__sk_common.skc_v6_rcv_saddr :
	    (void *)&((struct sk_buff *)P)->sk->__sk_common.skc_rcv_saddr) :
	    (__dcc_tcp_seg_family == AF_INET6 ?
	    (void *)&((struct ipv6hdr *)__dcc_net_nh)->daddr :
	    (void *)&((struct iphdr *)__dcc_net_nh)->daddr));
	tcps_raddr = inet_ntop(__dcc_tcp_seg_family, ((struct sk_buff *)P)->sk != 0 ?
	    (__dcc_tcp_seg_family == AF_INET6 ?
	    (void *)&((struct sk_buff *)P)->sk->__sk_common.skc_v6_daddr :
	    (void *)&((struct sk_buff *)P)->sk->__sk_common.skc_daddr) :
	    (__dcc_tcp_seg_family == AF_INET6 ?
	    (void *)&((struct ipv6hdr *)__dcc_net_nh)->saddr :
	    (void *)&((struct iphdr *)__dcc_net_nh)->saddr));
	tcps_state = ((struct sk_buff *)P)->sk != 0 ?
	    xlate <tcpsinfo_t *> (((struct sk_buff *)P)->sk)->tcps_state : 0;
	tcps_iss = 0;
	tcps_irs = ((struct sk_buff *)P)->sk == 0 &&
	    (((uint8_t *)__dcc_net_upper)[13] & TH_SYN) ?
	    ntohl(((struct tcphdr *)__dcc_net_upper)->seq) : 0;
	tcps_suna = ((struct sk_buff *)P)->sk != 0 ?
	    xlate <tcpsinfo_t *> (((struct sk_buff *)P)->sk)->tcps_suna : 0;
	tcps_smax = ((struct sk_buff *)P)->sk != 0 ?
	    xlate <tcpsinfo_t *> (((struct sk_buff *)P)->sk)->tcps_smax : 0;
	tcps_snxt = ((struct sk_buff *)P)->sk != 0 ?
	    xlate <tcpsinfo_t *> (((struct sk_buff *)P)->sk)->tcps_snxt : 0;
	tcps_rack = ((struct sk_buff *)P)->sk != 0 ?
	    xlate <tcpsinfo_t *> (((struct sk_buff *)P)->sk)->tcps_rack : 0;
	tcps_rnxt = ((struct sk_buff *)P)->sk != 0 ?
	    xlate <tcpsinfo_t *> (((struct sk_buff *)P)->sk)->tcps_rnxt : 0;
	tcps_swnd = ((struct sk_buff *)P)->sk != 0 ?
	    xlate <tcpsinfo_t *> (((struct sk_buff *)P)->sk)->tcps_swnd : 0;
	tcps_snd_ws = ((struct sk_buff *)P)->sk != 0 ?
	    xlate <tcpsinfo_t *> (((struct sk_buff *)P)->sk)->tcps_snd_ws : 0;
	tcps_swl1 = 0;
	tcps_swl2 = ((struct sk_buff *)P)->sk != 0 ?
	    xlate <tcpsinfo_t *> (((struct sk_buff *)P)->sk)->tcps_swl2 : 0;
	tcps_rwnd = ((struct sk_buff *)P)->sk != 0 ?
	    xlate <tcpsinfo_t *> (((struct sk_buff *)P)->sk)->tcps_rwnd : 0;
	tcps_rcv_ws = ((struct sk_buff *)P)->sk != 0 ?
	    xlate <tcpsinfo_t *> (((struct sk_buff *)P)->sk)->tcps_rcv_ws : 0;
	tcps_cwnd = ((struct sk_buff *)P)->sk != 0 ?
	    xlate <tcpsinfo_t *> (((struct sk_buff *)P)->sk)->tcps_cwnd : 0;
	tcps_cwnd_ssthresh = ((struct sk_buff *)P)->sk != 0 ?
	    xlate <tcpsinfo_t *> (((struct sk_buff *)P)->sk)->tcps_cwnd_ssthresh : 0;
	tcps_sack_snxt = 0;
	tcps_rto = ((struct sk_buff *)P)->sk != 0 ?
	    xlate <tcpsinfo_t *> (((struct sk_buff *)P)->sk)->tcps_rto : 0;
	tcps_mss = ((struct sk_buff *)P)->sk != 0 ?
	    xlate <tcpsinfo_t *> (((struct sk_buff *)P)->sk)->tcps_mss : 0;
	tcps_retransmit = ((struct sk_buff *)P)->sk != 0 ?
	    xlate <tcpsinfo_t *> (((struct sk_buff *)P)->sk)->tcps_retransmit : 0;
	tcps_rtt = ((struct sk_buff *)P)->sk != 0 ?
	    xlate <tcpsinfo_t *> (((struct sk_buff *)P)->sk)->tcps_rtt : 0;
	tcps_rtt_sd = ((struct sk_buff *)P)->sk != 0 ?
	    xlate <tcpsinfo_t *> (((struct sk_buff *)P)->sk)->tcps_rtt_sd : 0;
	tcps_irtt = 0;
};

inline int __dcc_tcp_pkt_in = __dcc_ip_pkt && __dcc_net_proto == IPPROTO_TCP;
inline tcpsinfo_t *__dcc_tcp_tcpsinfo_seg = xlate <tcpsinfo_t *> ((struct dcc_tcp_seg *)arg0);

/* udp:::receive sees the datagram before any socket does: args[3]
 * describes the local end from the packet (its destination), with no
 * socket (udps_addr 0); this stand-in type selects that translator */
struct dcc_udp_in {
	int dcc_unused;
};

translator udpsinfo_t < struct dcc_udp_in *P > {
	udps_addr = 0;
	udps_lport = ntohs(((struct udphdr *)__dcc_net_upper)->dest);
	udps_rport = ntohs(((struct udphdr *)__dcc_net_upper)->source);
	udps_laddr = xlate <ipinfo_t *> ((struct sk_buff *)P)->ip_daddr;
	udps_raddr = xlate <ipinfo_t *> ((struct sk_buff *)P)->ip_saddr;
};

inline udpsinfo_t *__dcc_udp_udpsinfo_in = xlate <udpsinfo_t *> ((struct dcc_udp_in *)arg0);
