BEGIN
{
		x = 1 +	;
	trace(	"a\x123");
}
