proc:::exec { trace(args[1]); }
proc:::exec, proc:::exit { trace(args[0]); }
proc:::start { }
proc:::exec, syscall::read:entry { trace(args[0]); }
proc:::exec-success { trace(args[0]); }
