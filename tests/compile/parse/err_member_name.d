BEGIN { x = curthread->; }
