/* link_ntop(type, addr): an integer type and an address; the value is text
 * only for printing, as inet_ntop()'s is */
BEGIN { trace(link_ntop("a", 0)); }
BEGIN { trace(link_ntop(ARPHRD_ETHER)); }
BEGIN { trace(link_ntop(ARPHRD_INFINIBAND, "ab")); }
BEGIN { x = strjoin(link_ntop(1, 0), "a"); }
