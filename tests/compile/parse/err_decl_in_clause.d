BEGIN { int x; x = 1; }
