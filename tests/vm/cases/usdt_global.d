/*
 * USDT operands of globals on 6.1: gcc passes usdt_global's at -O2 as
 * memory relative to %rip (-8@dcc_glob_count(%rip)), read at the symbol's
 * address in its static a.out.
 * vm-cmd: usdt_global 3
 */
dccglob$target:::state { printf("%d %d %d %d\n", arg3, arg0, arg1, arg2); }
