/*
 * Addresses as strings (cg_inet.c's bpf_loop() bodies, shared by the
 * clauses): variables, comparisons and string functions on inet_ntop()'s,
 * inet_ntoa6()'s and link_ntop()'s text, next to the runtime's own.
 */
#pragma D option quiet

BEGIN
{
	this->a = (uint8_t *)alloca(20);
	this->a[4] = 0; this->a[5] = 0; this->a[6] = 0; this->a[7] = 0; this->a[8] = 0;
	this->a[10] = 0; this->a[11] = 0; this->a[12] = 0; this->a[13] = 0; this->a[14] = 0;
	this->a[0] = 0x20; this->a[1] = 0x01; this->a[2] = 0x0d; this->a[3] = 0xb8;
	this->a[9] = 1; this->a[15] = 1;
	this->s = inet_ntop(AF_INET6, (void *)this->a);
	printf("%s|%s|%d|%d|%s|\n", this->s, inet_ntop(AF_INET6, (void *)this->a),
	    strlen(this->s), this->s == "2001:db8:0:0:1::1", strjoin("[", strjoin(this->s, "]")));
}

BEGIN
{
	this->a = (uint8_t *)alloca(20);
	this->a[0] = 0; this->a[1] = 0; this->a[2] = 0; this->a[3] = 0; this->a[4] = 0;
	this->a[5] = 0; this->a[6] = 0; this->a[7] = 0; this->a[8] = 0; this->a[9] = 0;
	this->a[10] = 0xff; this->a[11] = 0xff;
	this->a[12] = 10; this->a[13] = 0; this->a[14] = 2; this->a[15] = 15;
	this->s = inet_ntoa6((in6_addr_t *)this->a);
	printf("%s|%s|%s|\n", this->s, (string)inet_ntop(AF_INET6, (void *)this->a),
	    this->s == "10.0.2.15" ? "v4" : "v6");
	printf("%s|%s|\n", link_ntop(ARPHRD_ETHER, (void *)(this->a + 10)),
	    strjoin(link_ntop(ARPHRD_ETHER, (void *)(this->a + 10)), "|"));
	exit(0);
}
