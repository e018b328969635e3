BEGIN { s = "%d"; printf(s, 1); }
