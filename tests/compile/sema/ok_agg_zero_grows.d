/* A bigger aggregation's zero value after a smaller one's (lquantize, then
 * quantize): the zero-value global grows, and must stay the one kept. */
BEGIN { @a["l"] = lquantize(1, 0, 100, 1); @b["q"] = quantize(1); }
