/*
 * The value subroutines on the kernel: byte order, getmajor()/getminor()
 * and rand() in BEGIN; alloca(), copyinto() and bcopy() of the subrs
 * trigger's buffer (triggers/subrs.h) and inet_ntoa(), inet_ntoa6() and
 * inet_ntop() of the addresses in it, printed, traced and used as keys;
 * link_ntop() of them too; progenyof() told apart by the trigger's child
 * and parent writes; and the faults a bad destination or address family
 * raises.
 */
#include <limits.h>

#include "e2e.h"
#include "e2e/triggers/subrs.h"

/* the trigger's buffer: offsets in struct subrs_buf */
#define V6(i) (8 + 16 * (i))
#define TEXT 136

E2E_TEST(subrs, byte_order_device_numbers_and_rand)
{
	const char *obj = e2e_build("byteorder",
		"BEGIN {\n"
		"	this->x = 0x0102030405060708;\n"
		"	printf(\"%x %x %x\\n\", htons(this->x), htonl(this->x), htonll(this->x));\n"
		"	printf(\"%x %x %x\\n\", ntohs(0x1234), ntohl(0x12345678),\n"
		"	       ntohll(0x1122));\n"
		"	printf(\"%d %d %d %d\\n\", sizeof(htons(0)), sizeof(ntohl(0)),\n"
		"	       sizeof(htonll(0)), sizeof(rand()));\n"
		"	this->dev = (8 << 20) | 17;\n"
		"	printf(\"%u %u %u %u\\n\", getmajor(this->dev), getminor(this->dev),\n"
		"	       getmajor(0xfff00000), getminor(0xffffffff));\n"
		"	printf(\"%d %d %d %d %d %d\\n\", rand(), rand(), rand(), rand(), rand(),\n"
		"	       rand());\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	const char *want = "807 8070605 807060504030201\n3412 78563412 2211000000000000\n"
			   "2 4 8 4\n8 17 4095 1048575\n";
	cr_assert_eq(strncmp(r.out, want, strlen(want)), 0, "got:\n%s", r.out);
	/* six ints, not all the same */
	long long v[6];
	int n = sscanf(r.out + strlen(want), "%lld %lld %lld %lld %lld %lld", &v[0], &v[1], &v[2],
		       &v[3], &v[4], &v[5]);
	cr_assert_eq(n, 6, "rand() line: %s", r.out + strlen(want));
	bool differ = false;
	for (int i = 0; i < 6; i++) {
		cr_assert(v[i] >= INT_MIN && v[i] <= INT_MAX, "rand() = %lld is not an int", v[i]);
		differ |= v[i] != v[0];
	}
	cr_assert(differ, "six rand() values are all %lld", v[0]);
	run_result_free(&r);
}

E2E_TEST(subrs, scratch_copies_and_ip_addresses_of_the_triggers_buffer)
{
	char d[4096];
	int n = snprintf(d, sizeof(d),
		"syscall::write:entry\n/pid == $target && arg2 == %zu/\n{\n"
		"	this->b = (uint8_t *)copyin(arg1, %zu);\n"
		"	printf(\"%%s %%x|\\n\", inet_ntoa((ipaddr_t *)this->b),\n"
		"	       ntohl(*(uint32_t *)this->b));\n",
		sizeof(struct subrs_buf), sizeof(struct subrs_buf));
	for (int i = 0; i < SUBRS_NV6; i++)
		n += snprintf(d + n, sizeof(d) - n,
			"	printf(\"%%s|%%s|\\n\", inet_ntoa6((in6_addr_t *)(this->b + %d)),\n"
			"	       inet_ntop(AF_INET6, this->b + %d));\n", V6(i), V6(i));
	snprintf(d + n, sizeof(d) - n,
		"	trace(inet_ntop(AF_INET, this->b));\n"
		"	@[inet_ntoa(this->b), inet_ntop(AF_INET6, this->b + %d)] = count();\n"
		"	this->a = (char *)alloca(16);\n"
		"	copyinto(arg1 + %d, 12, this->a);\n"
		"	this->c = (char *)alloca(8);\n"
		"	bcopy(this->a + 7, this->c, 5);\n"
		"	printf(\"\\n%%s|%%s|\\n\", stringof(this->a), stringof(this->c));\n"
		"	exit(0);\n"
		"}\n"
		"END { printa(\"%%s %%s %%@d\\n\", @); }\n", V6(3), TEXT);
	const char *obj = e2e_build("inet", d);
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", "-c", e2e_trigger("subrs"), obj, NULL);
	/* 2001:db8:0:0:1::1 is DTrace's run choice (the later of two equal runs);
	 * 1::2:3:4:5:6:7 shows that a single zero group is compressed */
	e2e_expect_out(&r, 0, "subrs.scratch_copies_and_ip_addresses_of_the_triggers_buffer");
	run_result_free(&r);
}

E2E_TEST(subrs, traced_addresses_are_strings_in_non_quiet_and_json_output)
{
	const char *obj = e2e_build("inet_trace",
		"syscall::write:entry\n/pid == $target && arg2 > 100/\n{\n"
		"	this->b = copyin(arg1, 24);\n"
		"	trace(inet_ntop(AF_INET6, (char *)this->b + 8));\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-x", "oformat=json", "-c", e2e_trigger("subrs"), obj, NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert(strstr(r.out, "{\"trace\":\"fe80::214:4fff:fe0b:76c8\"}"), "got:\n%s", r.out);
	run_result_free(&r);
	e2e_run(&r, DTRUN_BIN, "-c", e2e_trigger("subrs"), obj, NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert(strstr(r.out, ":entry   fe80::214:4fff:fe0b:76c8         \n"), "got:\n%s",
		  r.out);
	run_result_free(&r);
}

/* An address's text is a string of strsize characters: a smaller strsize
 * cuts it, in printf(), trace() and an aggregation's key alike. */
E2E_TEST(subrs, address_text_is_cut_to_strsize)
{
	const char *obj = e2e_build("inet_strsize",
		"#pragma D option strsize=9\n"
		"struct in6_addr *a;\n"
		"BEGIN\n{\n"
		"	a = alloca(sizeof(struct in6_addr));\n"
		"	a->in6_u.u6_addr8[0] = 0x20; a->in6_u.u6_addr8[1] = 0x01;\n"
		"	a->in6_u.u6_addr8[2] = 0x0d; a->in6_u.u6_addr8[3] = 0xb8;\n"
		"	a->in6_u.u6_addr8[15] = 5;\n"
		"	this->v4 = (ipaddr_t *)alloca(4);\n"
		"	*this->v4 = htonl(0xc0a864c8);\n"
		"	printf(\"%s|%s|%s|\\n\", inet_ntoa6(a), inet_ntop(AF_INET6, a),\n"
		"	       inet_ntoa(this->v4));\n"
		"	trace(inet_ntop(AF_INET, this->v4));\n"
		"	@[inet_ntoa6(a)] = count();\n"
		"	exit(0);\n"
		"}\n"
		"END { printa(\"\\n%s %@d\\n\", @); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert_str_eq(r.out, "2001:db8:|2001:db8:|192.168.1|\n192.168.1\n2001:db8: 1\n\n");
	run_result_free(&r);
}

/* Where D wants a string (a variable, a comparison, a string function, a
 * '?:' with a string arm), an address becomes the string of its text,
 * written in BPF: the same text the runtime prints for it, cut to
 * strsize the same way. */
E2E_TEST(subrs, addresses_become_strings_where_d_wants_one)
{
	char d[8192];
	int n = snprintf(d, sizeof(d),
		"#pragma D option quiet\n"
		"syscall::write:entry\n/pid == $target && arg2 == %zu/\n{\n"
		"	this->b = (uint8_t *)copyin(arg1, %zu);\n"
		"	this->s4 = inet_ntoa((ipaddr_t *)this->b);\n"
		"	printf(\"%%s|%%d|%%d|%%s\\n\", this->s4, this->s4 == \"192.168.1.10\",\n"
		"	       inet_ntop(AF_INET, this->b) != \"192.168.1.1\", strjoin(\"v4=\", this->s4));\n",
		sizeof(struct subrs_buf), sizeof(struct subrs_buf));
	/* a clause an address: each conversion is a few hundred instructions */
	for (int i = 0; i < SUBRS_NV6; i++)
		n += snprintf(d + n, sizeof(d) - n, "}\n"
			"syscall::write:entry\n/pid == $target && arg2 == %zu/\n{\n"
			"	this->b = (uint8_t *)copyin(arg1, %zu);\n"
			"	this->s = inet_ntop(AF_INET6, this->b + %d);\n"
			"	names[this->s] = %d;\n"
			"	printf(\"%%s|%%d|%%s|%%s|%%d\\n\", this->s, strlen(this->s),\n"
			"	       inet_ntoa6((in6_addr_t *)(this->b + %d)) == this->s ? \"same\" :\n"
			"	       inet_ntoa6((in6_addr_t *)(this->b + %d)),\n"
			"	       this->s == \"::1\" ? \"loopback\" : (string)inet_ntop(AF_INET6,\n"
			"	       this->b + %d), names[inet_ntop(AF_INET6, this->b + %d)]);\n",
			sizeof(struct subrs_buf), sizeof(struct subrs_buf), V6(i), i + 1, V6(i), V6(i),
			V6(i), V6(i));
	snprintf(d + n, sizeof(d) - n, "	exit(0);\n}\n");
	const char *obj = e2e_build("inet_string", d);
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_trigger("subrs"), obj, NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert_str_eq(r.out,
		"192.168.1.10|1|1|v4=192.168.1.10\n"
		"fe80::214:4fff:fe0b:76c8|24|same|fe80::214:4fff:fe0b:76c8|1\n"
		"::|2|same|::|2\n"
		"::1|3|same|loopback|3\n"
		"::ffff:192.168.1.10|19|192.168.1.10|::ffff:192.168.1.10|4\n"
		"2001:db8:0:0:1::1|17|same|2001:db8:0:0:1::1|5\n"
		"1::2:3:4:5:6:7|14|same|1::2:3:4:5:6:7|6\n"
		"::1.2.3.4|9|1.2.3.4|::1.2.3.4|7\n"
		"2001:db8:1234::abcd:0|21|same|2001:db8:1234::abcd:0|8\n\n");
	run_result_free(&r);
	/* strsize 9: nine characters, as printing cuts them */
	obj = e2e_build("inet_string9",
		"#pragma D option strsize=9\n"
		"#pragma D option quiet\n"
		"BEGIN\n{\n"
		"	this->a = (uint8_t *)alloca(16);\n"
		"	this->a[0] = 0x20; this->a[1] = 0x01; this->a[2] = 0x0d; this->a[3] = 0xb8;\n"
		"	this->a[15] = 5;\n"
		"	this->s = inet_ntop(AF_INET6, this->a);\n"
		"	printf(\"%s|%d|%d\\n\", this->s, strlen(this->s), this->s == \"2001:db8:\");\n"
		"	exit(0);\n"
		"}\n");
	e2e_run(&r, DTRUN_BIN, obj, NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert_str_eq(r.out, "2001:db8:|9|1\n\n");
	run_result_free(&r);
}

/* inet_ntoa6(a, strict): strict 0 (or none) writes an address that embeds
 * an IPv4 one (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d) as the dotted
 * quad alone; non-zero keeps the prefix, as inet_ntop() does. ::, ::1 and
 * other addresses are the same either way. */
E2E_TEST(subrs, inet_ntoa6_strict_keeps_the_prefix_of_an_embedded_ipv4_address)
{
	const char *obj = e2e_build("inet_strict",
		"struct in6_addr *m, *c, *l;\n"
		"BEGIN\n{\n"
		"	m = alloca(sizeof(struct in6_addr));\n"
		"	c = alloca(sizeof(struct in6_addr));\n"
		"	l = alloca(sizeof(struct in6_addr));\n"
		"	m->in6_u.u6_addr8[10] = 0xff; m->in6_u.u6_addr8[11] = 0xff;\n"
		"	m->in6_u.u6_addr8[12] = 10; m->in6_u.u6_addr8[15] = 7;\n"
		"	c->in6_u.u6_addr8[12] = 192; c->in6_u.u6_addr8[13] = 168;\n"
		"	c->in6_u.u6_addr8[15] = 1;\n"
		"	l->in6_u.u6_addr8[15] = 1;\n"
		"	printf(\"%s %s %s|\", inet_ntoa6(m), inet_ntoa6(m, 0), inet_ntoa6(m, 3 - 1));\n"
		"	printf(\"%s %s %s|\", inet_ntoa6(c), inet_ntoa6(c, 0), inet_ntoa6(c, -1));\n"
		"	printf(\"%s %s|\\n\", inet_ntoa6(l), inet_ntoa6(l, 1));\n"
		"	trace(inet_ntoa6(m, 1));\n"
		"	@[inet_ntoa6(c, 1)] = count();\n"
		"	exit(0);\n"
		"}\n"
		"END { printa(\"\\n%s %@d\\n\", @); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	cr_assert_str_eq(r.out, "10.0.0.7 10.0.0.7 ::ffff:10.0.0.7|"
			 "192.168.0.1 192.168.0.1 ::192.168.0.1|::1 ::1|\n"
			 "::ffff:10.0.0.7\n::192.168.0.1 1\n\n");
	run_result_free(&r);
}

/* link_ntop() of the trigger's bytes: an Ethernet address (6 bytes) and an
 * InfiniBand one (20), printed, traced and as a key; "" for another type;
 * a bad address is DTrace's invalid address error. */
E2E_TEST(subrs, link_ntop_of_the_triggers_buffer)
{
	const char *obj = e2e_build("link_ntop",
		"syscall::write:entry\n/pid == $target && arg2 > 100/\n{\n"
		"	this->b = (char *)copyin(arg1, 64);\n"
		"	printf(\"%s|\\n\", link_ntop(ARPHRD_ETHER, this->b + 16));\n"
		"	printf(\"%s|\\n\", link_ntop(ARPHRD_INFINIBAND, this->b + 8));\n"
		"	printf(\"[%s]\\n\", link_ntop(7, this->b));\n"
		"	trace(link_ntop(1, this->b + 8));\n"
		"	@[link_ntop(ARPHRD_ETHER, this->b + 16)] = count();\n"
		"	exit(0);\n"
		"}\n"
		"END { printa(\"\\n%s %@d\\n\", @); }\n"
		"BEGIN\n{\n"
		"	trace(link_ntop(ARPHRD_ETHER, 0));\n"
		"	printf(\"not reached\\n\");\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", "-c", e2e_trigger("subrs"), obj, NULL);
	e2e_expect_out(&r, 0, "subrs.link_ntop_of_the_triggers_buffer");
	e2e_expect_err(&r, "*error in *link_ntop.d:13:1 *: invalid address (0x0)*", NULL);
	run_result_free(&r);
}

E2E_TEST(subrs, progenyof_tells_the_child_from_the_parent)
{
	const char *obj = e2e_build("progeny",
		"syscall::write:entry\n/progenyof($target) && arg2 == 1/\n{\n"
		"	child = pid;\n"
		"	@c[progenyof($target), progenyof(ppid), pid == $target, progenyof(1)] ="
		" count();\n"
		"}\n"
		"syscall::write:entry\n/pid == $target && arg2 == 2/\n{\n"
		"	@p[progenyof($target), progenyof(child), progenyof(ppid), progenyof(0)] ="
		" count();\n"
		"}\n"
		"END { printa(\"child %d %d %d %d %@d\\n\", @c);"
		" printa(\"parent %d %d %d %d %@d\\n\", @p); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", "-c", e2e_trigger("subrs"), obj, NULL);
	e2e_expect_out(&r, 0, "subrs.progenyof_tells_the_child_from_the_parent");
	run_result_free(&r);
}

E2E_TEST(subrs, bad_destination_and_family_are_run_time_errors)
{
	const char *obj = e2e_build("subr_faults",
		"BEGIN\n{\n"
		"	this->a = (char *)alloca(8);\n"
		"	bcopy(curthread->comm, (char *)curthread, 4);\n"
		"	printf(\"not reached\\n\");\n"
		"}\n"
		"BEGIN\n{\n"
		"	this->af = 7;\n"
		"	trace(inet_ntop(this->af, &curthread->pid));\n"
		"	printf(\"not reached\\n\");\n"
		"}\n"
		"BEGIN\n{\n"
		"	copyinto(0, 4, alloca(4));\n"
		"	printf(\"not reached\\n\");\n"
		"}\n"
		"BEGIN\n{\n"
		"	printf(\"%s\\n\", inet_ntoa((ipaddr_t *)8));\n"
		"	printf(\"not reached\\n\");\n"
		"}\n"
		"BEGIN { printf(\"done\\n\"); exit(0); }\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", obj, NULL);
	e2e_expect_out(&r, 0, "subrs.bad_destination_and_family_are_run_time_errors");
	e2e_expect_err(&r, "*error in *subr_faults.d:1:1 *: invalid address (0xffff*)*",
		       "*error in *subr_faults.d:7:1 *: illegal operation*",
		       "*error in *subr_faults.d:13:1 *: invalid address (0x0)*",
		       "*error in *subr_faults.d:18:1 *: invalid address (0x8)*", NULL);
	run_result_free(&r);
}

/* The lock subroutines read a struct mutex the way DTrace for Linux does:
 * the exiting thread's cred_guard_mutex is free, so not owned and no owner;
 * every Linux mutex is adaptive, none a spin lock. */
E2E_TEST(subrs, mutex_of_the_exiting_thread)
{
	const char *obj = e2e_build("mutexes",
		"#pragma D option quiet\n"
		"syscall::exit_group:entry\n/pid == $target/\n{\n"
		"	this->m = &curthread->signal->cred_guard_mutex;\n"
		"	printf(\"%d %d %d %d\\n\", mutex_owned(this->m), mutex_owner(this->m) == NULL,\n"
		"	       mutex_type_adaptive(this->m), mutex_type_spin(this->m));\n"
		"	exit(0);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s 0 x", e2e_trigger("open_paged")), obj, NULL);
	e2e_expect_out(&r, 0, "subrs.mutex_of_the_exiting_thread");
	run_result_free(&r);
}
