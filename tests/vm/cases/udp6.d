/*
 * ip:::send/receive of IPv6 on 6.1: the udp_n trigger's 4 datagrams over
 * ::1, with ipinfo_t's version and addresses and ipv6info_t's fixed header.
 * vm-cmd: udp_n 30910 30911 4 6
 */
#pragma D option quiet

ip:::send, ip:::receive /args[2]->ip_ver == 6 && args[5]->ipv6_nexthdr == IPPROTO_UDP &&
    args[2]->ip_plength == 45/
{
	@[probename, args[2]->ip_saddr, args[2]->ip_daddr, args[3]->if_name, args[5]->ipv6_plen,
	    args[5]->ipv6_nextstr, args[5]->ipv6_hlim, args[5]->ipv6_daddr] = count();
}

END
{
	printa("%s %s -> %s %s plen %d %s hlim %d %s: %@d\n", @);
}
