BEGIN
{
		x = 1 +	;
	trace(	"a\q");
}
