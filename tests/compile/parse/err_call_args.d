BEGIN { printf("%d\n", ); }
