/* Only an integer added to a string skips characters: subtracting, or
 * adding a string or a pointer, is refused. */
BEGIN
{
	s = "text";
	a = s - 1;
	b = s + s;
	c = s + (char *)0;
}
