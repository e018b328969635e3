BEGIN { x = !execname; }
