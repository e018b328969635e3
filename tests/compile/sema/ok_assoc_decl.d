/* declared associative arrays, used with the types they declare */
uint64_t last[int];
char small[uint64_t];
self string names[int, string];
int counts[string];

syscall::read:entry
{
	last[pid] = timestamp;
	small[(uint64_t)curthread] = 1;
	self->names[tid, execname] = execname;
	counts[probefunc]++;
	counts["total"] += 2;
}

syscall::read:return
/last[pid]/
{
	printf("%d %d %s %d\n", timestamp - last[pid], small[(uint64_t)curthread],
	    self->names[tid, execname], counts["total"]);
	last[pid] = 0;
}
