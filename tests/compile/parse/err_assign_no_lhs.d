BEGIN { = 5; }
