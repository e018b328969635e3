BEGIN { trace(1, 2); exit(); }
