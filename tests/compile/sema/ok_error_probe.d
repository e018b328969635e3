/* ERROR clauses: the fault's description in arg1..arg5, compared with the
 * D library's DTRACEFLT_* constants; NULL is a pointer constant */
ERROR
/arg4 == DTRACEFLT_BADADDR && arg5 != (uint64_t)NULL/
{
	printf("probe %d clause %d offset %d fault %d value %x\n", arg1, arg2, arg3, arg4, arg5);
}

ERROR, BEGIN
{
	trace(arg4 == DTRACEFLT_DIVZERO || arg4 == DTRACEFLT_NOSCRATCH ||
	    arg4 == DTRACEFLT_ILLOP || arg4 == DTRACEFLT_UNKNOWN);
}
