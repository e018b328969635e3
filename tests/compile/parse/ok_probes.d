#!/usr/sbin/dtrace -qs
#pragma D option quiet
#pragma D option bufsize=4m
#pragma D option strsize = 512
#pragma D depends_on module vmlinux
#pragma D binding "1.0" foo
#pragma D version 1.2.3
#pragma D attributes Evolving/Evolving/Common provider sdt args
#pragma ident "ignored"
// a line comment (dcc extension)
BEGIN {}
END
{
}
dtrace:::BEGIN { ; ; trace(1) }
syscall::open*:entry, syscall::openat:entry
, syscall::read:return
/pid == $target/
{
	@[probefunc] = count();
}
profile:::tick-1sec, profile-997hz /arg0/ { trace(arg0); }
pid$target:libc.so.6:malloc:entry { @["malloc"] = sum(arg0) }
fbt:vmlinux:vfs_[rw]*:entry, sdt:sched::sched_switch, :::ERROR { }
syscall::*stat?:return /errno != 0 && (arg0 / 2) > 1/ { trace(errno); }
12345 { }
#line 100 "other.d"
BEGIN /x/ { trace(x); }
