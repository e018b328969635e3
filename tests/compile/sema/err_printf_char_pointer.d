/* %s and %S print a string or a char array; a char pointer is an address,
 * which stringof() turns into the string it points to */
char buf[8];
BEGIN
{
	p = (char *)arg0;
	printf("%s %S\n", stringof(p), buf);
	printf("%s\n", p);
	printf("%-8S|\n", (const char *)curthread->comm);
	printf("%s\n", curthread->comm);
}
