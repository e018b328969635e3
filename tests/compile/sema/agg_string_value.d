BEGIN { @a = sum(execname); }
