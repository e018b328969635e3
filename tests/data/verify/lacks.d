syscall::getppid:entry
{
	trace(curthread->dcc_only_here);
}
