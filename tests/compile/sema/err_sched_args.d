sched:::on-cpu { trace(args[0]); }
sched:::off-cpu { trace(args[2]); }
sched:::off-cpu, proc:::exit { trace(args[0]); }
sched:::off-cpu, sched:::wakeup, sched:::sleep { trace(args[1]->pr_pid); }
