syscall::openat:entry { trace(args[1]); trace(args[7]); @[copyinstr(args[1], 32)] = count(); }
syscall::openat:return { trace(args[0]); trace(args[2]); }
BEGIN { trace(args[0]); }
syscall::read*:entry { trace(args[1]); }
