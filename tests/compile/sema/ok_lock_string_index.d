/* the lock subroutines on void * and on their own types, a string indexed */
BEGIN
{
	this->v = (void *)0;
	trace(mutex_owned(this->v) + mutex_type_adaptive((struct mutex *)this->v));
	trace(rw_iswriter((rwlock_t *)this->v) + rw_write_held(this->v));
	trace(execname[0] + "abc"[2] + ((string)this->v == ""));
}
