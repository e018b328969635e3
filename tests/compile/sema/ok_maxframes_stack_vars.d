#pragma D option maxframes=3
BEGIN
{
	@[stack(50)] = count();
	@u[ustack()] = count();
	trace(stackdepth + ustackdepth);
	trace(caller);
	trace(ucaller);
}
