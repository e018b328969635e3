BEGIN { @a = count(1); @b = sum(); }
