/*
 * The udp and ip providers on 6.1: the udp_n trigger sends 5 datagrams of
 * 37 bytes between two loopback sockets, each received before the next;
 * send and receive count them exactly, with the addresses, lengths and the
 * interface, as tests/e2e/test_net.c checks them here. Fixed ports: UDP
 * leaves no TIME_WAIT behind.
 * vm-cmd: udp_n 30900 30901 5
 */
#pragma D option quiet

udp:::send, udp:::receive /args[4]->udp_sport == 30901 && args[4]->udp_dport == 30900/
{
	@u[probename, args[2]->ip_saddr, args[2]->ip_daddr, args[4]->udp_length,
	    args[2]->ip_plength] = count();
}

ip:::send, ip:::receive /args[4]->ipv4_protocol == IPPROTO_UDP &&
    args[2]->ip_plength == 45 && args[3]->if_local/
{
	@i[probename, args[3]->if_name, args[4]->ipv4_protostr, args[4]->ipv4_length,
	    args[4]->ipv4_saddr, args[4]->ipv4_daddr] = count();
}

END
{
	printa("udp %s %s -> %s udp %d ip %d: %@d\n", @u);
	printa("ip %s %s %s %d %s -> %s: %@d\n", @i);
}
