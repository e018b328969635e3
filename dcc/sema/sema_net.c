/*
 * The ip, tcp and udp providers: which kernel tracepoint serves each probe
 * (tp_btf, through proc_prov.h's rows that cg_proc.c attaches), and the
 * probes none serves, refused by name.
 *
 * Every row maps arg0 to the packet's struct sk_buff (0 where the
 * tracepoint passes none) and arg1 to the struct sock (0 where the packet's
 * own skb->sk is meant), so the inlines of headers/d/net_ip.d and
 * net_tcp.d serve every probe alike; state changes add arg2 the old state
 * and arg3 the new one.
 *
 * send is net_dev_queue (a packet handed to a device, loopback included)
 * and receive netif_receive_skb, filtered by protocol, for ip, tcp and udp.
 * tcp:::receive was tcp_probe, but the kernel fires that for segments of
 * established connections only (tcp_rcv_established): the handshake's
 * SYN and SYN-ACK and the closing segments were not seen. No tracepoint
 * sees every received segment with its socket, so a received segment's
 * args[3] is the packet's view (headers/d/net_tcp.d). The connection
 * probes are inet_sock_set_state's transitions: connect-request CLOSE -> SYN_SENT (in
 * connect(), before the SYN leaves), connect-established SYN_SENT ->
 * ESTABLISHED, accept-established SYN_RECV -> ESTABLISHED (the new child
 * socket); connect-refused is tcp_receive_reset on a socket in SYN_SENT,
 * and accept-refused tcp_send_reset without a socket for a SYN (args[2..4]
 * describe the reset from the SYN, as net_tcp.d says).
 *
 * ip:::drop-in and drop-out are skb:kfree_skb (every drop, with the
 * kernel's reason as arg2: enum skb_drop_reason, numbered differently by
 * each kernel) on an IP packet, told apart by whether the packet came in
 * through a device (skb_iif, set on receive, loopback included): a
 * forwarded packet dropped on its way out counts as drop-in.
 */
#include <string.h>

#include "diag.h"
#include "proc_prov.h"
#include "sema_internal.h"

#define N PROC_SRC_NONE
#define TP PA_TP_BTF

/* args[] of packet probes: pktinfo, csinfo, ipinfo, then per provider */
#define PKT "__dcc_net_pktinfo", "__dcc_net_csinfo", "__dcc_net_ipinfo"
#define TCP_PKT { PKT, "__dcc_tcp_tcpsinfo_seg", "__dcc_tcp_tcpinfo" }
#define TCP_SOCK { PKT "_sk", "__dcc_tcp_tcpsinfo" }
#define TCP_STATE { PKT "_sk", "__dcc_tcp_tcpsinfo", NULL, "__dcc_tcp_tcplsinfo" }

static const struct proc_probe nets[] = {
	{ "ip", "drop-in", TP, "kfree_skb", { 0, N, 2, N }, "__dcc_ip_drop_in",
	  { PKT, "__dcc_net_ifinfo", "__dcc_net_ipv4info", "__dcc_net_ipv6info" }, NULL },
	{ "ip", "drop-out", TP, "kfree_skb", { 0, N, 2, N }, "__dcc_ip_drop_out",
	  { PKT, "__dcc_net_ifinfo", "__dcc_net_ipv4info", "__dcc_net_ipv6info" }, NULL },
	{ "ip", "receive", TP, "netif_receive_skb", { 0, N, N, N }, "__dcc_ip_pkt",
	  { PKT, "__dcc_net_ifinfo", "__dcc_net_ipv4info", "__dcc_net_ipv6info" }, NULL },
	{ "ip", "send", TP, "net_dev_queue", { 0, N, N, N }, "__dcc_ip_pkt",
	  { PKT, "__dcc_net_ifinfo", "__dcc_net_ipv4info", "__dcc_net_ipv6info" }, NULL },
	{ "tcp", "accept-refused", TP, "tcp_send_reset", { 1, 0, N, N }, "__dcc_tcp_acc_refused",
	  { "__dcc_net_pktinfo", "__dcc_net_csinfo", "__dcc_tcp_rst_ipinfo",
	    "__dcc_tcp_rst_tcpsinfo", "__dcc_tcp_rst_tcpinfo" }, NULL },
	{ "tcp", "accept-established", TP, "inet_sock_set_state", { N, 0, 1, 2 },
	  "__dcc_tcp_acc_est", TCP_STATE, NULL },
	{ "tcp", "connect-established", TP, "inet_sock_set_state", { N, 0, 1, 2 },
	  "__dcc_tcp_conn_est", TCP_STATE, NULL },
	{ "tcp", "connect-refused", TP, "tcp_receive_reset", { N, 0, N, N }, "__dcc_tcp_refused",
	  TCP_SOCK, NULL },
	{ "tcp", "connect-request", TP, "inet_sock_set_state", { N, 0, 1, 2 },
	  "__dcc_tcp_conn_req", TCP_STATE, NULL },
	{ "tcp", "receive", TP, "netif_receive_skb", { 0, N, N, N }, "__dcc_tcp_pkt_in", TCP_PKT,
	  NULL },
	{ "tcp", "send", TP, "net_dev_queue", { 0, N, N, N }, "__dcc_tcp_pkt", TCP_PKT, NULL },
	{ "tcp", "state-change", TP, "inet_sock_set_state", { N, 0, 1, 2 }, "__dcc_tcp_sock",
	  TCP_STATE, NULL },
	{ "udp", "receive", TP, "netif_receive_skb", { 0, N, N, N }, "__dcc_udp_pkt",
	  { PKT, "__dcc_udp_udpsinfo_in", "__dcc_udp_udpinfo" }, NULL },
	{ "udp", "send", TP, "net_dev_queue", { 0, N, N, N }, "__dcc_udp_pkt",
	  { PKT, "__dcc_udp_udpsinfo", "__dcc_udp_udpinfo" }, NULL },
};

const struct proc_probe *net_probe(int i)
{
	return i >= 0 && i < (int)(sizeof(nets) / sizeof(nets[0])) ? &nets[i] : NULL;
}

/* what no tracepoint serves (none left today; the table stays for the next) */
static const struct {
	const char *prov, *name, *why;
} refused[] = {
	{ NULL, NULL, NULL },
};

/* 1 and a diagnostic for a probe of these providers no tracepoint serves */
int sema_net_refused(struct sema *s, struct node *d, const char *prov, const char *name)
{
	for (unsigned i = 0; refused[i].prov; i++)
		if (!strcmp(prov, refused[i].prov) && !strcmp(name, refused[i].name))
			return diag_error(s->dg, d->loc, "%s:::%s is not supported: %s", prov,
					  name, refused[i].why);
	return 0;
}
