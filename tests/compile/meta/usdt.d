/*
 * USDT descriptions: each one probe of the object, an attachment the
 * loader resolves against the process's notes (its pid, 0 for $target).
 */
dcctest$target:::tick { trace(arg0); }
dcc*::work:query-done { trace(args[1]); }
myprov1234:libfoo.so::start { trace(probename); }
