BEGIN { x = curthread; }
