BEGIN /x == 1 { trace(1); }
