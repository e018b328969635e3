/* link_ntop(type, addr): an integer type and an address (where a string is
 * wanted, the value is its text, as inet_ntop()'s is) */
BEGIN { trace(link_ntop("a", 0)); }
BEGIN { trace(link_ntop(ARPHRD_ETHER)); }
BEGIN { trace(link_ntop(ARPHRD_INFINIBAND, "ab")); }
BEGIN { x = strjoin(link_ntop(1, "b"), "a"); }
