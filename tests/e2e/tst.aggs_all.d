#pragma D option quiet
syscall::getppid:entry /pid == $target/
{
	self->i++;
	@c = count(); @s = sum(self->i); @a = avg(self->i); @mn = min(self->i); @mx = max(self->i);
	@sd = stddev(self->i);
	@q = quantize(self->i - 5);
	@l = lquantize(self->i, 2, 8, 2);
	@ll = llquantize(self->i * 10, 10, 0, 2, 5);
	@k[self->i % 3] = count();
	@t[self->i] = sum(self->i * 100);
}
END { trunc(@t, 3); printa("top %d %@d\n", @t); normalize(@s, 4); }
