BEGIN { x = a[1]]; y = f(1)) + 2; }
