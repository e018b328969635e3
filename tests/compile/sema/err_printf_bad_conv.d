BEGIN { printf("%w\n", 1); }
