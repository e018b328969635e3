BEGIN { y = z; }
