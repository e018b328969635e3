BEGIN { x = printf("a"); }
