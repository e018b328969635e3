BEGIN { printf("a\qb\n"); }
