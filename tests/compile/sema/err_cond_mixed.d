BEGIN { x = pid ? "a" : 1; }
