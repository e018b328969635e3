#pragma D option quiet
int declared;
self int depth;
BEGIN { declared = 3; s = "str"; this->t = declared * 2; printf("%d %s %d\n", declared, s, this->t); }
syscall::read:entry /pid == $target && execname == "x"/ { self->ts = timestamp; self->depth++; @[probefunc] = count(); }
syscall::read:return /self->ts/ { @lat[execname, errno] = avg(timestamp - self->ts); @m = min(arg0); @x = max(arg1); @s = sum(1); self->ts = 0; }
profile:::tick-1s { trace(walltimestamp > 0 ? "yes" : "no"); }
END { printa(@); printa("%s %d %@d\n", @lat); exit(0); }
