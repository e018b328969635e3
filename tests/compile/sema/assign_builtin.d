BEGIN { pid = 1; }
