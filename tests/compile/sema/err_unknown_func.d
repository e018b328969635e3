BEGIN { foo(1); }
