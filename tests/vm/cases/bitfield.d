/*
 * A kernel bit-field read through CO-RE (byte offset, size and shifts are
 * all relocated), in a tp_btf program: task_struct.in_execve is set while
 * the traced command execs.
 * vm-cmd: psids @REPORT@
 */
rawtp:sched::sched_process_exec
/pid == $target/
{
	printf("in_execve=%d in_iowait=%d comm=%s\n", curthread->in_execve, curthread->in_iowait,
	    args[0]->comm);
}
