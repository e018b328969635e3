/* ?: between pointers: the same type, or a pointer and 0 */
BEGIN
{
	this->t = pid > 0 ? curthread : curthread->real_parent;
	this->u = pid > 0 ? curthread : 0;
	this->v = pid > 0 ? 0 : curthread;
	this->w = pid > 0 ? curthread : (struct file *)0;
	this->x = pid > 0 ? curthread : 1;
	print(this->t);
}
