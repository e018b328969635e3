/* D compiles a script clause by clause: a global read in a clause before
 * the one that first assigns it is unknown there */
END { printf("%d\n", later + 1); }
BEGIN /later == 0/ { later = 1; }
BEGIN { total = timestamp - started; }
BEGIN { started = timestamp; }
