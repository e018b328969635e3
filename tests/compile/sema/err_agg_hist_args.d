BEGIN { @a = quantize(1, 2, 3); @b = lquantize(1, 2); @c = llquantize(1, 10, 0, 2); }
