/* inet_ntoa(), inet_ntoa6(), inet_ntop(): an address (and a family); the
 * value is its text where a string is wanted (variables, comparisons), but
 * not an integer: printf's %d is an error. inet_ntoa6() takes a struct
 * in6_addr * and an optional integer constant (strict). */
string s;
int *ip;
BEGIN
{
	trace(inet_ntoa());
	trace(inet_ntoa6("::1"));
	trace(inet_ntop("AF_INET", &curthread->pid));
	s = inet_ntoa(&curthread->pid);
	x = inet_ntoa6((struct in6_addr *)&curthread->pid) == "::1";
	x = inet_ntoa((ipaddr_t *)&curthread->pid) + 1;
	printf("%d\n", inet_ntop(AF_INET, &curthread->pid));
	printf("%s\n", inet_ntop(AF_INET, &curthread->pid));
	trace(inet_ntoa6(ip));
	trace(inet_ntoa6(arg0));
	trace(inet_ntoa6((struct in6_addr *)ip, x));
	trace(inet_ntoa6((struct in6_addr *)ip, "1"));
	trace(inet_ntoa6((struct in6_addr *)ip, 1, 2));
	trace(inet_ntoa6((void *)ip, 1 - 1));
	trace(inet_ntoa6(0));
}
