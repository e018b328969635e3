BEGIN { trace(1)); }
