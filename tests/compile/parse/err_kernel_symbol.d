BEGIN { trace(vmlinux`max_pfn); }
