BEGIN { x = counter; }
