/*
 * dcc -h's header for a provider of a server: a probe without arguments,
 * one whose name has "__" (DTrace's "-"), and one with the most arguments
 * <sys/sdt.h> can place.
 */
provider myserv {
	probe start();
	probe query__start(char *, int);
	probe query__done(char *, int, uint64_t);
	probe many(int, int, int, int, int, int, int, int, int, int, int, long long);
};

provider other {
	probe ping(void);
};
