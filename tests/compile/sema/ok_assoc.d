BEGIN { a[1] = 2; s[execname, pid] = "x"; self->m[probefunc] = 1; self->m[probefunc]++; t[1] += 5; exit(a[1] + t[1] + self->m["x"]); }
