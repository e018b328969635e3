/* inet_ntoa(), inet_ntoa6(), inet_ntop(): an address (and a family); the
 * value is text only for printing: string operations and variables are
 * errors, printf's %d too */
string s;
BEGIN
{
	trace(inet_ntoa());
	trace(inet_ntoa6("::1"));
	trace(inet_ntop("AF_INET", &curthread->pid));
	s = inet_ntoa(&curthread->pid);
	x = inet_ntoa6(&curthread->pid) == "::1";
	printf("%d\n", inet_ntop(AF_INET, &curthread->pid));
	printf("%s\n", inet_ntop(AF_INET, &curthread->pid));
}
