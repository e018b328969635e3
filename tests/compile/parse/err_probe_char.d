syscall::open(:entry { }
