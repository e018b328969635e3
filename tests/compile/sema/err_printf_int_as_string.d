BEGIN { printf("%s|\n", 1 + 2); }
