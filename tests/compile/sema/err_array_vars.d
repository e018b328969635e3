int a[5];
uint8_t m[2][3];
self int keyed[int][4];
string names[2];
BEGIN
{
	a[5] = 1;
	trace(a[-1]);
	a[1] = "text";
	a[1, 2] = 3;
	trace(curthread->comm[16]);
	trace(&a[5]);
	trace(&a[6]);
	this->pp = (int **)alloca(8);
	(*this->pp)++;
	this->sp = (struct task_struct *)alloca(8);
	--*this->sp;
}
