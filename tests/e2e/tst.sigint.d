/* Runs until interrupted; END prints and adds to the aggregation. */
BEGIN
{
	printf("begin\n");
	@n["begin"] = count();
}

END
{
	printf("end\n");
	@n["end"] = count();
	@n["end"] = count();
}
