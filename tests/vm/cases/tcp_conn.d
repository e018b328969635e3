/*
 * The tcp provider on 6.1 (sock:inet_sock_set_state, net_dev_queue,
 * netif_receive_skb): one loopback connection of the tcp_pair trigger, its ports picked from its
 * pid in 30000-30799 and reported; the connection probes with both ends'
 * addresses and ports, and every state change of the listener, the
 * accepted socket and the client, and the handshake's SYN and SYN-ACK sent
 * (with their sockets) and received (before any socket), as
 * tests/e2e/test_net.c checks them here.
 * One difference between the kernels is hidden: 6.1 sets the accepted
 * socket's first state (LISTEN -> SYN_RECEIVED) before its remote port,
 * 6.18 after, so that row shows -1 for the remote port.
 * vm-cmd: tcp_pair 30000 0 @REPORT@
 */
#pragma D option quiet

inline int lo = 30000;
inline int hi = 30800;

tcp:::connect-established, tcp:::accept-established
/args[3]->tcps_lport >= lo && args[3]->tcps_lport < hi/
{
	printf("%s %s:%d -> %s:%d ip %s -> %s v%d\n", probename, args[3]->tcps_laddr,
	    args[3]->tcps_lport, args[3]->tcps_raddr, args[3]->tcps_rport, args[2]->ip_saddr,
	    args[2]->ip_daddr, args[2]->ip_ver);
}

tcp:::state-change
/(args[3]->tcps_lport >= lo && args[3]->tcps_lport < hi) ||
    (args[3]->tcps_rport >= lo && args[3]->tcps_rport < hi)/
{
	@s[args[3]->tcps_lport, args[5]->tcps_state == TCP_STATE_LISTEN &&
	    args[3]->tcps_state == TCP_STATE_SYN_RECEIVED ? -1 : (int)args[3]->tcps_rport,
	    args[5]->tcps_state, args[3]->tcps_state] = count();
}

tcp:::send, tcp:::receive /(args[4]->tcp_flags & TH_SYN) &&
    ((args[4]->tcp_sport >= lo && args[4]->tcp_sport < hi) ||
    (args[4]->tcp_dport >= lo && args[4]->tcp_dport < hi))/
{
	@syn[probename, args[4]->tcp_flags, args[3]->tcps_lport, args[3]->tcps_rport,
	    args[3]->tcps_addr != 0, args[3]->tcps_state] = count();
}

END
{
	printa("%s %x %d <-> %d sock %d state %d: %@d\n", @syn);
	printa("%d %d %d -> %d: %@d\n", @s);
}
