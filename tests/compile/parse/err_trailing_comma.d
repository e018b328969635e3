BEGIN, { trace(1); }
