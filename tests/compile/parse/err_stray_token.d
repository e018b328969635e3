BEGIN { trace(1) trace(2); }
END { x = 1 2; }
