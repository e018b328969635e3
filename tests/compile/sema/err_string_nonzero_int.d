/* only the constant 0 may stand for a string: 1 and a variable stay errors */
BEGIN
{
	s = "text";
	n = 0;
	s = 1;
	s = n;
	trace(s == 1);
	trace(s != n);
	trace(strlen(2));
	trace(strtok("a b", 3));
	trace(n ? s : 1);
	trace(s + 0);
}
