BEGIN { printf("a\qb\?\'\n"); x = '\?'; }
