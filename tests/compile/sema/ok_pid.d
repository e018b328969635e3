pid$target:a.out:dcc_*:entry { trace(arg0 + arg7); trace(probefunc); }
pid123:libc.so.6:getpid: { trace(arg1); trace(probemod); trace(probeprov); }
pid$target:::return, syscall::getpid:entry { trace(probename); }
