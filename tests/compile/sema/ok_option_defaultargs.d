#pragma D option defaultargs
BEGIN { printf("%d %s\n", $3, $$4); exit(0); }
