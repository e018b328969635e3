BEGIN
{
	if (pid == 1) {
		trace(1);
	} else {
		trace(2);
	}
	trace(3)
}
