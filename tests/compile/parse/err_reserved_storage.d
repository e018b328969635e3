BEGIN { static int x; }
