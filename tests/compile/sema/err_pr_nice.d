BEGIN { trace(curlwpsinfo->pr_pri); trace(curlwpsinfo->pr_nice); exit(0); }
