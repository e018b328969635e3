BEGIN
{
	self->t = curthread;
	self->t = 0;
	self->t = pid;
	this->p = curthread;
	this->p = 1 - 1;
	n = 0;
	n = curthread;
	exit(0);
}
