BEGIN { @a = lquantize(1, 10, 0); @b = lquantize(1, 0, 10, 0); @c = llquantize(1, 1, 0, 2, 10); @d = llquantize(1, 10, 3, 2, 10); @e = llquantize(1, 10, 0, 2, 3); @f = lquantize(1, x, 10); }
