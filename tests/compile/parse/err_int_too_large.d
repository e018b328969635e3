BEGIN { x = 18446744073709551616; y = 0x1ffffffffffffffff; }
