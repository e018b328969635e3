BEGIN { trace(curthread->pdi); trace(curthread->real_parent->comn); trace(curthread->nosuchthing); trace(curthread.pid); trace(pid->x); }
