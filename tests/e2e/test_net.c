/*
 * The tcp, udp and ip providers on this kernel, on loopback traffic the
 * triggers make between ports the test picks (from its pid, so that two
 * runs in a row do not meet each other's TIME_WAIT sockets).
 *
 * tcp_pair makes one connection: the connection probes fire once each with
 * the ports the right way round, and state-change sees every transition of
 * the listener, the accepted socket and the client. The accepted socket's
 * last change (LAST_ACK -> CLOSED) comes after the kernel has let go of
 * its local port, so it is seen with local port 0 (filtered by the remote
 * port). tcp:::receive sees every segment that arrives (netif_receive_skb):
 * the handshake's SYN and SYN-ACK as well as the byte of data.
 */
#include <unistd.h>

#include "e2e.h"

static int lport(void)
{
	return 20000 + (int)(getpid() % 10000) * 2;
}

E2E_TEST(net, tcp_connection_probes_and_state_changes_with_ports)
{
	int l = lport(), c = l + 1;
	const char *obj = e2e_build("tcp", e2e_fmt(
		"#pragma D option quiet\n"
		"tcp:::connect-request, tcp:::connect-established, tcp:::accept-established\n"
		"/args[3]->tcps_lport == %d || args[3]->tcps_lport == %d/\n"
		"{\n"
		"	printf(\"%%s %%s:%%d -> %%s:%%d ip %%s -> %%s v%%d\\n\", probename,\n"
		"	    args[3]->tcps_laddr, args[3]->tcps_lport, args[3]->tcps_raddr,\n"
		"	    args[3]->tcps_rport, args[2]->ip_saddr, args[2]->ip_daddr, args[2]->ip_ver);\n"
		"}\n"
		"tcp:::state-change /args[3]->tcps_lport == %d || args[3]->tcps_lport == %d ||\n"
		"    args[3]->tcps_rport == %d || args[3]->tcps_rport == %d/\n"
		"{\n"
		"	@s[args[3]->tcps_lport, args[3]->tcps_rport, args[5]->tcps_state,\n"
		"	    args[3]->tcps_state] = count();\n"
		"}\n"
		"tcp:::send, tcp:::receive /(args[4]->tcp_sport == %d || args[4]->tcp_dport == %d) &&\n"
		"    ((args[4]->tcp_flags & TH_SYN) || args[2]->ip_plength - args[4]->tcp_offset > 0)/\n"
		"{\n"
		"	@p[probename, args[4]->tcp_sport, args[4]->tcp_dport, args[4]->tcp_flags,\n"
		"	    args[2]->ip_plength - args[4]->tcp_offset] = count();\n"
		"}\n"
		"END\n"
		"{\n"
		"	printa(\"%%d %%d %%d -> %%d: %%@d\\n\", @s);\n"
		"	printa(\"%%s %%d -> %%d flags %%x data %%d: %%@d\\n\", @p);\n"
		"}\n", l, c, l, c, l, c, l, l));
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s %d %d", e2e_trigger("tcp_pair"), l, c), obj,
		NULL);
	e2e_expect(&r, 0, e2e_fmt(
		"connect-request 127.0.0.1:%1$d -> 127.0.0.1:%2$d ip 127.0.0.1 -> 127.0.0.1 v4\n"
		"connect-established 127.0.0.1:%1$d -> 127.0.0.1:%2$d ip 127.0.0.1 -> 127.0.0.1 v4\n"
		"accept-established 127.0.0.1:%2$d -> 127.0.0.1:%1$d ip 127.0.0.1 -> 127.0.0.1 v4\n"
		"0 %1$d 9 -> 7: 1\n"
		"%2$d 0 7 -> 10: 1\n"
		"%2$d 0 10 -> 7: 1\n"
		"%2$d %1$d 1 -> 8: 1\n"
		"%2$d %1$d 3 -> 1: 1\n"
		"%2$d %1$d 8 -> 9: 1\n"
		"%2$d %1$d 10 -> 3: 1\n"
		"%1$d %2$d 1 -> 4: 1\n"
		"%1$d %2$d 2 -> 1: 1\n"
		"%1$d %2$d 4 -> 5: 1\n"
		"%1$d %2$d 5 -> 7: 1\n"
		"%1$d %2$d 7 -> 2: 1\n"
		"receive %2$d -> %1$d flags 12 data 0: 1\n"
		"receive %1$d -> %2$d flags 2 data 0: 1\n"
		"receive %1$d -> %2$d flags 18 data 1: 1\n"
		"send %2$d -> %1$d flags 12 data 0: 1\n"
		"send %1$d -> %2$d flags 2 data 0: 1\n"
		"send %1$d -> %2$d flags 18 data 1: 1\n"
		"\n", c, l));
	run_result_free(&r);
}

/* The handshake through tcp:::send and receive in one clause (its
 * addresses compared as strings in the predicate): a sent SYN
 * has its socket (args[3] the sender's view), a received one is seen
 * before any socket (args[3] the packet's view: the local end its
 * destination, no socket, state 0, the SYN's sequence number as tcps_irs).
 * The SYN-ACK's socket is a request socket: no connection members. */
E2E_TEST(net, tcp_receive_sees_the_handshake_segments)
{
	int l = lport(), c = l + 1;
	const char *obj = e2e_build("tcp_syn", e2e_fmt(
		"#pragma D option quiet\n"
		"tcp:::send, tcp:::receive /(args[4]->tcp_flags & TH_SYN) &&\n"
		"    (args[4]->tcp_sport == %d || args[4]->tcp_dport == %d) &&\n"
		"    args[2]->ip_daddr == \"127.0.0.1\" && args[3]->tcps_raddr != \"127.0.0.2\"/\n"
		"{\n"
		"	printf(\"%%s %%x %%s:%%d <-> %%s:%%d sock %%d state %%d irs %%d local %%d snxt %%d mss %%d\\n\",\n"
		"	    probename, args[4]->tcp_flags, args[3]->tcps_laddr, args[3]->tcps_lport,\n"
		"	    args[3]->tcps_raddr, args[3]->tcps_rport, args[3]->tcps_addr != 0,\n"
		"	    args[3]->tcps_state, probename == \"receive\" ?\n"
		"	    args[3]->tcps_irs == args[4]->tcp_seq : args[3]->tcps_irs == 0,\n"
		"	    args[3]->tcps_local, args[3]->tcps_snxt != 0, args[3]->tcps_mss != 0);\n"
		"}\n"
		"tcp:::send, tcp:::receive /(args[4]->tcp_sport == %d || args[4]->tcp_dport == %d) &&\n"
		"    args[2]->ip_saddr == \"127.0.0.2\"/\n"
		"{\n"
		"	printf(\"not from 127.0.0.2\\n\");\n"
		"}\n", l, l, l, l));
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s %d %d", e2e_trigger("tcp_pair"), l, c), obj,
		NULL);
	e2e_expect(&r, 0, e2e_fmt(
		"send 2 127.0.0.1:%2$d <-> 127.0.0.1:%1$d sock 1 state 2 irs 1 local 1 snxt 1 mss 1\n"
		"receive 2 127.0.0.1:%1$d <-> 127.0.0.1:%2$d sock 0 state 0 irs 1 local 1 snxt 0 mss 0\n"
		"send 12 127.0.0.1:%1$d <-> 127.0.0.1:%2$d sock 1 state 3 irs 1 local 1 snxt 0 mss 0\n"
		"receive 12 127.0.0.1:%2$d <-> 127.0.0.1:%1$d sock 0 state 0 irs 1 local 1 snxt 0 mss 0\n"
		"\n", l, c));
	run_result_free(&r);
}

#define DATAGRAMS 7

E2E_TEST(net, udp_and_ip_send_and_receive_count_datagrams)
{
	int l = lport(), c = l + 1;
	const char *obj = e2e_build("udp", e2e_fmt(
		"#pragma D option quiet\n"
		"udp:::send, udp:::receive /args[4]->udp_sport == %d && args[4]->udp_dport == %d/\n"
		"{\n"
		"	@u[probename, args[2]->ip_saddr, args[2]->ip_daddr, args[4]->udp_length,\n"
		"	    args[2]->ip_plength] = count();\n"
		"}\n"
		"udp:::send /args[4]->udp_sport == %d/\n"
		"{\n"
		"	@s[probename, args[3]->udps_lport, args[3]->udps_laddr, args[3]->udps_rport,\n"
		"	    args[3]->udps_addr != 0] = count();\n"
		"}\n"
		"udp:::receive /args[4]->udp_sport == %d/\n"
		"{\n"
		"	@s[probename, args[3]->udps_lport, args[3]->udps_laddr, args[3]->udps_rport,\n"
		"	    args[3]->udps_addr != 0] = count();\n"
		"}\n"
		"ip:::send, ip:::receive /args[4]->ipv4_protocol == IPPROTO_UDP &&\n"
		"    args[2]->ip_plength == 45 && args[3]->if_local/\n"
		"{\n"
		"	@i[probename, args[3]->if_name, args[4]->ipv4_protostr, args[4]->ipv4_length,\n"
		"	    args[4]->ipv4_saddr, args[4]->ipv4_daddr] = count();\n"
		"}\n"
		"END\n"
		"{\n"
		"	printa(\"udp %%s %%s -> %%s udp %%d ip %%d: %%@d\\n\", @u);\n"
		"	printa(\"udps %%s %%d %%s %%d %%d: %%@d\\n\", @s);\n"
		"	printa(\"ip %%s %%s %%s %%d %%s -> %%s: %%@d\\n\", @i);\n"
		"}\n", c, l, c, c));
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s %d %d %d", e2e_trigger("udp_n"), l, c,
					     DATAGRAMS), obj, NULL);
	e2e_expect(&r, 0, e2e_fmt(
		"udp receive 127.0.0.1 -> 127.0.0.1 udp 45 ip 45: %1$d\n"
		"udp send 127.0.0.1 -> 127.0.0.1 udp 45 ip 45: %1$d\n"
		"udps receive %3$d 127.0.0.1 %2$d 0: %1$d\n"
		"udps send %2$d 127.0.0.1 0 1: %1$d\n"
		"ip receive lo UDP 65 127.0.0.1 -> 127.0.0.1: %1$d\n"
		"ip send lo UDP 65 127.0.0.1 -> 127.0.0.1: %1$d\n"
		"\n", DATAGRAMS, c, l));
	run_result_free(&r);
}

/* tcp_refused connects to a port where nothing listens: the kernel's reset
 * is accept-refused (args[] describing the reset, from the port refused to
 * the client) and connect-refused on the client's socket. */
E2E_TEST(net, refused_connection_fires_accept_and_connect_refused)
{
	int l = lport(), c = l + 1;
	const char *obj = e2e_build("refused", e2e_fmt(
		"#pragma D option quiet\n"
		"tcp:::accept-refused /args[4]->tcp_sport == %d/\n"
		"{\n"
		"	printf(\"%%s %%s:%%d -> %%s:%%d flags %%x local %%s:%%d remote %%s:%%d %%d\\n\",\n"
		"	    probename, args[2]->ip_saddr, args[4]->tcp_sport, args[2]->ip_daddr,\n"
		"	    args[4]->tcp_dport, args[4]->tcp_flags, args[3]->tcps_laddr,\n"
		"	    args[3]->tcps_lport, args[3]->tcps_raddr, args[3]->tcps_rport,\n"
		"	    args[1]->cs_addr);\n"
		"}\n"
		"tcp:::connect-refused /args[3]->tcps_rport == %d/\n"
		"{\n"
		"	printf(\"%%s %%s:%%d -> %%s:%%d\\n\", probename, args[3]->tcps_laddr,\n"
		"	    args[3]->tcps_lport, args[3]->tcps_raddr, args[3]->tcps_rport);\n"
		"}\n", l, l));
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s %d %d", e2e_trigger("tcp_refused"), l, c), obj,
		NULL);
	e2e_expect(&r, 0, e2e_fmt(
		"accept-refused 127.0.0.1:%1$d -> 127.0.0.1:%2$d flags 14 local 127.0.0.1:%1$d "
		"remote 127.0.0.1:%2$d 0\n"
		"connect-refused 127.0.0.1:%2$d -> 127.0.0.1:%1$d\n"
		"\n", l, c));
	run_result_free(&r);
}

/* udp_n over ::1: ip:::send/receive's ipinfo_t says version 6 with the
 * addresses through inet_ntop, and args[5] (ipv6info_t) the fixed header:
 * the payload length, UDP as next header, the hop limit, the addresses as
 * text and as in6_addr_t pointers, a 20-bit flow label. */
E2E_TEST(net, ipv6_datagrams_on_loopback_with_ipv6info)
{
	int l = lport(), c = l + 1;
	const char *obj = e2e_build("udp6", e2e_fmt(
		"#pragma D option quiet\n"
		"ip:::send, ip:::receive /args[2]->ip_ver == 6 &&\n"
		"    args[5]->ipv6_nexthdr == IPPROTO_UDP && args[2]->ip_plength == 45/\n"
		"{\n"
		"	@ip[probename, args[2]->ip_saddr, args[2]->ip_daddr, args[3]->if_name,\n"
		"	    args[5]->ipv6_ver, args[5]->ipv6_plen, args[5]->ipv6_nextstr] = count();\n"
		"	@hdr[probename, args[5]->ipv6_hlim, args[5]->ipv6_saddr, args[5]->ipv6_daddr,\n"
		"	    inet_ntop(AF_INET6, args[5]->ipv6_dst), args[5]->ipv6_flow < 0x100000,\n"
		"	    args[5]->ipv6_hdr != 0] = count();\n"
		"}\n"
		"udp:::send, udp:::receive /args[2]->ip_ver == 6 && args[4]->udp_dport == %d/\n"
		"{\n"
		"	@udp[probename, args[2]->ip_saddr, args[4]->udp_sport, args[4]->udp_dport,\n"
		"	    args[4]->udp_length] = count();\n"
		"}\n"
		"END\n"
		"{\n"
		"	printa(\"ip %%s %%s -> %%s %%s v%%d plen %%d %%s: %%@d\\n\", @ip);\n"
		"	printa(\"hdr %%s hlim %%d %%s -> %%s (%%s) %%d %%d: %%@d\\n\", @hdr);\n"
		"	printa(\"udp %%s %%s %%d -> %%d len %%d: %%@d\\n\", @udp);\n"
		"}\n", l));
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s %d %d %d 6", e2e_trigger("udp_n"), l, c,
					     DATAGRAMS), obj, NULL);
	e2e_expect(&r, 0, e2e_fmt(
		"ip receive ::1 -> ::1 lo v6 plen 45 UDP: %1$d\n"
		"ip send ::1 -> ::1 lo v6 plen 45 UDP: %1$d\n"
		"hdr receive hlim 64 ::1 -> ::1 (::1) 1 1: %1$d\n"
		"hdr send hlim 64 ::1 -> ::1 (::1) 1 1: %1$d\n"
		"udp receive ::1 %2$d -> %3$d len 45: %1$d\n"
		"udp send ::1 %2$d -> %3$d len 45: %1$d\n"
		"\n", DATAGRAMS, c, l));
	run_result_free(&r);
}

/* udp_closed sends 5 datagrams to a port where nothing listens: the kernel
 * drops each on receive (no socket), ip:::drop-in with the kernel's drop
 * reason in arg2 and the packet's args; none is dropped on the way out. */
E2E_TEST(net, datagrams_to_a_closed_port_are_drop_in)
{
	const char *obj = e2e_build("drop", e2e_fmt(
		"#pragma D option quiet\n"
		"ip:::drop-in, ip:::drop-out /args[4]->ipv4_protocol == IPPROTO_UDP &&\n"
		"    args[2]->ip_plength == 45 && args[3]->if_local &&\n"
		"    ntohs(*(uint16_t *)(args[4]->ipv4_hdr + args[4]->ipv4_ihl + 2)) == %d/\n"
		"{\n"
		"	@[probename, args[2]->ip_saddr, args[2]->ip_daddr, args[3]->if_name,\n"
		"	    args[2]->ip_ver, arg2 != 0] = count();\n"
		"}\n"
		"END { printa(\"%%s %%s -> %%s %%s v%%d reason %%d: %%@d\\n\", @); }\n", lport()));
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s %d 5", e2e_trigger("udp_closed"), lport()), obj,
		NULL);
	e2e_expect(&r, 0, "drop-in 127.0.0.1 -> 127.0.0.1 lo v4 reason 1: 5\n\n");
	run_result_free(&r);
}
