syscall::read:entry /arg0 > 2/
