/* dependencies dcc satisfies: its providers and the kernel itself */
#pragma D depends_on provider syscall
#pragma D depends_on provider profile
#pragma D depends_on module vmlinux
BEGIN { exit(0); }
