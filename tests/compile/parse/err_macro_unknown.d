syscall::read:entry /pid == $foo/ { trace($$bar); }
