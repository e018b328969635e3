ip:::drop-in { }
ip:::drop-out { }
tcp:::state-change { trace(args[4]->tcp_sport); }
udp:::receive { trace(args[5]); }
tcp:::send, tcp:::state-change { trace(args[2]->ip_saddr); }
tcp:::bogus { }
