BEGIN { printf("[%s] [%s] [%s]\n", cwd, root, d_path(&curthread->fs->pwd)); exit(0); }
