struct foo { int a; };
BEGIN { }
