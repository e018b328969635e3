/* USDT probes' arguments are 64-bit integers, args[] as arg0.. */
dcctest$target:::tick /args[0] > 1 && arg1 != 0/ { @[probefunc, probename, args[9]] = sum(arg9); }
