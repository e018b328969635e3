BEGIN { x = 'a; }
