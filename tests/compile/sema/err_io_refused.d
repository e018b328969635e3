io:::wait-start
{
	trace(1);
}

io:::start, syscall::read:entry
{
	trace(args[0]->b_bcount);
}

io:::done
{
	trace(args[3]);
}
