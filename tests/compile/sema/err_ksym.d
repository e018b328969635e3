BEGIN { trace(`jiffies); trace(ext4`foo); x = &`jiffies; trace(*(unsigned long *)&vmlinux`jiffies); }
