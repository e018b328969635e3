BEGIN { trace(d_path(curthread)); }
BEGIN { trace(d_path(&curthread->fs->pwd, 1)); }
