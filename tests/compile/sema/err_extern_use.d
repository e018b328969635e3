/* an extern variable is declared, but reading it is not supported yet */
extern unsigned long nr_pages;

BEGIN
{
	trace(nr_pages);
}
