BEGIN { trace(1); } }
