BEGIN { printf("%d\n", 1, 2); }
