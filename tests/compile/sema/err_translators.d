BEGIN { trace(curpsinfo->pr_nosuch); trace(xlate <psinfo_t> (curthread)->pr_pid); trace(xlate <lwpsinfo_t *> (curthread)->pr_flag); }
