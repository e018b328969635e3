BEGIN { x = 1.5; y = 2e10; }
