/* every member of the network providers' translated arguments, against
 * the pinned kernel types */
tcp:::send, tcp:::receive
{
	printf("%d %d %d %d %s %s %d %d %d %d %d %d %d %d %d %d\n", args[0]->pkt_addr,
	    args[1]->cs_addr, args[1]->cs_cid, args[1]->cs_pid, args[2]->ip_saddr,
	    args[2]->ip_daddr, args[2]->ip_ver, args[2]->ip_plength, args[4]->tcp_sport,
	    args[4]->tcp_dport, args[4]->tcp_seq, args[4]->tcp_ack, args[4]->tcp_offset,
	    args[4]->tcp_flags, args[4]->tcp_window, args[4]->tcp_urgent);
	printf("%d %d %s %s %d %d %d %d %d %d %d %d %d %d %d %d\n", args[3]->tcps_lport,
	    args[3]->tcps_rport, args[3]->tcps_laddr, args[3]->tcps_raddr, args[3]->tcps_state,
	    args[3]->tcps_local, args[3]->tcps_suna, args[3]->tcps_snxt, args[3]->tcps_rnxt,
	    args[3]->tcps_swnd, args[3]->tcps_rwnd, args[3]->tcps_cwnd, args[3]->tcps_rto,
	    args[3]->tcps_mss, args[3]->tcps_rtt, args[3]->tcps_retransmit);
}
tcp:::state-change, tcp:::connect-established, tcp:::accept-established,
tcp:::connect-request
{
	printf("%d %s %d %d\n", args[5]->tcps_state, args[2]->ip_saddr, args[3]->tcps_lport,
	    args[0]->pkt_addr);
}
tcp:::connect-refused { printf("%d %s\n", args[3]->tcps_rport, args[2]->ip_daddr); }
tcp:::accept-refused
{
	printf("%s %s %d %d %s %s %d %x %d\n", args[2]->ip_saddr, args[2]->ip_daddr,
	    args[3]->tcps_lport, args[3]->tcps_rport, args[3]->tcps_laddr, args[3]->tcps_raddr,
	    args[4]->tcp_sport, args[4]->tcp_flags, args[1]->cs_addr);
}
udp:::send
{
	printf("%d %d %d %s\n", args[4]->udp_sport, args[4]->udp_length, args[3]->udps_lport,
	    args[3]->udps_raddr);
}
udp:::receive
{
	printf("%d %s %d %d %s %s %d\n", args[4]->udp_dport, args[2]->ip_daddr, args[3]->udps_lport,
	    args[3]->udps_rport, args[3]->udps_laddr, args[3]->udps_raddr, args[3]->udps_addr);
}
ip:::send, ip:::receive
{
	printf("%s %d %d %s %d %d %d %s %s\n", args[3]->if_name, args[3]->if_local,
	    args[3]->if_ipstack, args[4]->ipv4_protostr, args[4]->ipv4_ttl,
	    args[4]->ipv4_length, args[4]->ipv4_offset, args[4]->ipv4_saddr,
	    args[4]->ipv4_daddr);
}
lockstat:::adaptive-block, lockstat:::adaptive-spin, lockstat:::spin-spin
{
	@[probename] = quantize(args[1]);
	trace(args[0]);
}
lockstat:::rw-block, lockstat:::rw-spin { @rw[arg2 ? "reader" : "writer"] = sum(args[1]); }
cpc:::page-faults-user-100, cpc:::cpu-clock-kernel-1000000, cpc:::cycles-all-10000
{
	@pc[arg0, arg1] = count();
}
