BEGIN { a[1] = 2; }
