int cells[4];
int copy[4];
self int mine[2];
BEGIN
{
	cells[1] = 7;
	copy = cells;
	self->mine += 1;
	copy[2] = cells[1];
	exit(0);
}
