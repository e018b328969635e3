BEGIN
{
	x = ;
	y = (1 + ;
	z = 3
	w = "a\x";
}
END { trace(1) }
profile:::tick-1sec { @[ = count(); }
