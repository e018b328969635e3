BEGIN { trace(json("{}", "a")); }
