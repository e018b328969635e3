/* string subroutines: arity and argument kinds; char arrays become strings */
BEGIN
{
	a = strlen();
	b = strlen("a", "b");
	c = substr("abc");
	d = substr("abc", 1, 2, 3);
	e = index("abc", 1);
	f = strjoin(1, "x");
	g = lltostr("12");
	h = strtoll("12", "x");
	i = strchr("abc", "b");
	j = toupper(curthread);
	k = basename(curthread->comm);
	l = strlen(curthread->comm) + index(execname, "a", 2) + strtoll("7");
	m = strjoin(lltostr(l, 16), dirname(substr(execname, -3)));
	n = strlen(m) + l;
	o = m + 1;
	p = strtok(1, ",");
	q = strtok("a");
	r = strtok(NULL, 1);
	t = strtok(m, ",") + strtok(NULL, ";");
}
