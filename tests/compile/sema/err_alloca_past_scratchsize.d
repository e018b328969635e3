#pragma D option scratchsize=12
BEGIN
{
	p = alloca(8);
	q = alloca(9);
}
