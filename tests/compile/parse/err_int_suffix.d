BEGIN { x = 10ms; y = 1lul; z = 0x; }
