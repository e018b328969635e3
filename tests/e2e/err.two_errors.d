BEGIN
{
	x = ;
}

END
{
	y = 1 +;
}
