/*
 * The probes of the usdt_hdr trigger, declared in D: dcc -h makes the
 * trigger's header from this file when the tests are built.
 */
provider dcchdr {
	/* a counter, its square as a 64-bit value, a string */
	probe tick(int, long long, char *);
	/* traced as dcchdr$target:::loop-end */
	probe loop__end(int);
};
