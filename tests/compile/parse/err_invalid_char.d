BEGIN { x = 1 #; y = `; }
