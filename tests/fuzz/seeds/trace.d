/* fuzz seed: trace() of each value kind (stacks, addresses, network
 * addresses, arrays), and aggregations keyed by raw bytes, so the fuzzer
 * starts from records that reach every trace() form and byte keys */
syscall::read:entry
{
	trace(stack());
	trace(ustack());
	trace(sym(arg0));
	trace(func(arg0));
	trace(mod(arg0));
	trace(usym(arg1));
	trace(ufunc(arg1));
	trace(uaddr(arg1));
	trace(umod(arg1));
	this->a4 = (ipaddr_t *)alloca(4);
	*this->a4 = 0x0100007f;
	trace(inet_ntoa(this->a4));
	trace(curthread->comm);
	trace((char)arg2);
	trace((short)arg2);
	trace((int)arg2);
	trace((uint8_t)arg2);
	trace((uint16_t)arg2);
	trace((uint32_t)arg2);
	trace(arg2);
	@bytes[curthread->comm] = count();

}
