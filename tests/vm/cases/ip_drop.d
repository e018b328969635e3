/*
 * ip:::drop-in on 6.1 (skb:kfree_skb, whose drop reasons are numbered
 * differently there): the udp_closed trigger's 3 datagrams to a port where
 * nothing listens, each dropped on receive.
 * vm-cmd: udp_closed 30950 3
 */
#pragma D option quiet

ip:::drop-in, ip:::drop-out /args[4]->ipv4_protocol == IPPROTO_UDP &&
    args[2]->ip_plength == 45 && args[3]->if_local/
{
	@[probename, args[2]->ip_saddr, args[2]->ip_daddr, args[3]->if_name, arg2 != 0] = count();
}

END
{
	printa("%s %s -> %s %s reason %d: %@d\n", @);
}
