BEGIN { trace(vmlinux` + 1); }
