/* fuzz seed: every consumer-side action and each aggregation's kind in one
 * object, so the fuzzer starts from records and maps that decode */
#pragma D option quiet

BEGIN
{
	printf("%d %u %x %X %o %c %s %5.2s %-8d|%+d %p %a %A %%\n",
	       -1, 2, 255, 255, 8, 'z', "str", "abcdef", 7, 3,
	       (void *)0x1000, 0xffffffff81000000, 0xffffffff81000000);
	printf("%lld %llu %hd %hhu %ld %i %S\n", -9ll, 10ull, (short)-3, (uint8_t)250, 11l, 12,
	       "esc\tape");
	trace(1);
	trace("text");
	trace(curthread);
	tracemem(curthread, 24);
	this->a4 = (ipaddr_t *)alloca(4);
	this->a6 = (in6_addr_t *)alloca(16);
	*this->a4 = 0x0100007f;
	printf("%s %s %s\n", inet_ntoa(this->a4), inet_ntop(AF_INET6, this->a6),
	       inet_ntoa6(this->a6));
	setopt("quiet", "0");
}

syscall::read:entry
{
	@c[execname] = count();
	@s[pid, tid] = sum(arg2);
	@a = avg(arg2);
	@mn = min(arg2);
	@mx = max(arg2);
	@sd = stddev(arg2);
	@q = quantize(arg2);
	@l = lquantize(arg2, 0, 100, 10);
	@ll = llquantize(arg2, 10, 0, 6, 20);
	@st[stack()] = count();
	@ust[ustack()] = count();
	@sy[sym(arg0), mod(arg0)] = count();
	@us[usym(arg0), umod(arg0), uaddr(arg0)] = count();
}

syscall::read:entry
/arg2 > 100/
{
	self->spec = speculation();
	speculate(self->spec);
	printf("speculated %d\n", arg2);
}

syscall::read:return
/self->spec/
{
	commit(self->spec);
	self->spec = 0;
}

syscall::write:return
/self->spec/
{
	discard(self->spec);
	self->spec = 0;
}

tick-1s
{
	normalize(@s, 1000);
	printa("%s %@d\n", @c);
	printa(@s);
	printa("%@d %@d %@d %@d\n", @a, @mn, @mx, @sd);
	printa(@q);
	printa(@l);
	printa(@ll);
	printa(@st);
	printa(@ust);
	printa(@sy);
	printa(@us);
	denormalize(@s);
	trunc(@c, 3);
	clear(@a);
	trunc(@q);
}

tick-5s
{
	exit(0);
}
