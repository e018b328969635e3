BEGIN { @a = lquantize(1, 2, 3, 4); @b = lquantize(1, 0, 10, 10); exit(0); }
