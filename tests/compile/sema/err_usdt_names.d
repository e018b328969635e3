/* "usdt" is no provider: USDT probes are their own provider's, in a process;
 * a provider definition is for dcc -h */
usdt:::query-start {}

provider myserv {
	probe query__start(char *);
};
