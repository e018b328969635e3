BEGIN { trace(vtimestamp); }
