BEGIN { trace($pid + $ppid + $pgid + $sid + $uid + $gid + $euid + $egid); trace($0); }
