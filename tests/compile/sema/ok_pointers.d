BEGIN { p = (struct task_struct *)arg0; x = p + 1; y = p - p; z = &p->pid; trace(*z); trace(stringof(p->comm)); trace(p->comm); exit(p == 0 ? 1 : 0); }
