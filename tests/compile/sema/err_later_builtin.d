BEGIN { trace(ipl); }
