/* 65 aggregations updated by one clause, with the object's own maps: more than
 * the 64 maps one BPF program may use (dcc must say so when it compiles). */
#pragma D option quiet

BEGIN
{
	@agg00 = count();
	@agg01 = count();
	@agg02 = count();
	@agg03 = count();
	@agg04 = count();
	@agg05 = count();
	@agg06 = count();
	@agg07 = count();
	@agg08 = count();
	@agg09 = count();
	@agg10 = count();
	@agg11 = count();
	@agg12 = count();
	@agg13 = count();
	@agg14 = count();
	@agg15 = count();
	@agg16 = count();
	@agg17 = count();
	@agg18 = count();
	@agg19 = count();
	@agg20 = count();
	@agg21 = count();
	@agg22 = count();
	@agg23 = count();
	@agg24 = count();
	@agg25 = count();
	@agg26 = count();
	@agg27 = count();
	@agg28 = count();
	@agg29 = count();
	@agg30 = count();
	@agg31 = count();
	@agg32 = count();
	@agg33 = count();
	@agg34 = count();
	@agg35 = count();
	@agg36 = count();
	@agg37 = count();
	@agg38 = count();
	@agg39 = count();
	@agg40 = count();
	@agg41 = count();
	@agg42 = count();
	@agg43 = count();
	@agg44 = count();
	@agg45 = count();
	@agg46 = count();
	@agg47 = count();
	@agg48 = count();
	@agg49 = count();
	@agg50 = count();
	@agg51 = count();
	@agg52 = count();
	@agg53 = count();
	@agg54 = count();
	@agg55 = count();
	@agg56 = count();
	@agg57 = count();
	@agg58 = count();
	@agg59 = count();
	@agg60 = count();
	@agg61 = count();
	@agg62 = count();
	@agg63 = count();
	@agg64 = count();
}

END
{
	@one = count();
}
