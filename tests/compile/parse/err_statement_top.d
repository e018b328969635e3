x = 1;
BEGIN { trace(x); }
