#pragma D option quiet
struct pt { int x; long y; char tag[8]; };
struct pt g;
self struct pt s;
syscall::getppid:entry /pid == $target/
{
	g.x++;
	g.y += 10;
	self->s.x = g.x * 2;
	this->t = *curthread;
	this->c = this->t.pid;
	self->task = *curthread->real_parent;
	printf("g.x=%d g.y=%d s.x=%d pid_ok=%d parent_ok=%d comm=%s\n", g.x, g.y, self->s.x,
	    this->c == pid, self->task.tgid == ppid, stringof(this->t.comm));
}
END { trace(g); }
