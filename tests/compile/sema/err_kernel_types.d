BEGIN { x = (struct nosuch *)arg0; y = (struct task_struct *)arg0; z = y->se.no_field; w = *y; }
