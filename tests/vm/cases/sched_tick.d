/*
 * sched:::tick on the 6.1 kernel, whose tick handler is tick_sched_timer
 * (this machine's is tick_nohz_handler): spin_cpu runs 300 ms of CPU time,
 * about 75 ticks at the cloud kernel's HZ of 250 (30 to 300 for HZ 100 to
 * 1000), each in its own context.
 * vm-cmd: spin_cpu 300
 */
sched:::tick /pid == $target/
{
	n++;
	@agree = min(arg0 == (uint64_t)curthread && args[0]->pr_lwpid == tid &&
	    args[1]->pr_pid == pid);
}
END
{
	printf("ticks in range %d\n", n >= 15 && n <= 380);
	printa("agree %@d\n", @agree);
}
