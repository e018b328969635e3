BEGIN
{
	i = 3;
	trace(uregs[i]);
	trace(uregs[26]);
	trace(uregs[R_GS]);
	trace(uregs[1, 2]);
	trace(uregs["pc"]);
	uregs[R_PC] = 0;
	args[0] = 1;
}
