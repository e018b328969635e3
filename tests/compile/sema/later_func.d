BEGIN { trace(strlen("abc")); }
