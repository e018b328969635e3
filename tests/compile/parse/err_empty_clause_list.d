{ trace(1); }
