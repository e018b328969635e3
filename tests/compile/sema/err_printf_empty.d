BEGIN { printf(""); printf("%s", ""); exit(0); }
