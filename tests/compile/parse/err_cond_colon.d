BEGIN { x = a ? b; }
