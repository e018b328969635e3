/* every sched probe a tracepoint serves, with the arguments each has */
sched:::off-cpu, sched:::wakeup { trace(args[0]->pr_lwpid); trace(args[1]->pr_pid); }
sched:::on-cpu { trace(execname); trace(pid); trace(tid); trace(curthread->prio); }
sched:::preempt, sched:::sleep { trace(curlwpsinfo->pr_sname); }
sched::: { @[probename] = count(); }
profile-97 { trace(curcpu->cpu_chip); trace(chip + pset + lgrp); }
