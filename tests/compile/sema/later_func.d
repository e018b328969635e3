BEGIN { trace(strtok("abc", "b")); }
