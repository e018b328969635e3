pid$target:a.out:dcc_*:entry { trace(arg0 + arg7); trace(probefunc); }
pid123:libc.so.6:getpid: { trace(arg1); trace(probemod); trace(probeprov); }
pid$target:::return, syscall::getpid:entry { trace(probename); }
pid$target:a.out:main:1C, pid$target:a.out:main:en* { trace(probename); trace(arg6); }
pid$target:a.out:f:r* { trace(uregs[R_RDI]); }
