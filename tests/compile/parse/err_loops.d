BEGIN
{
	for (i = 0; i < 3; i++) { x++; }
	while (x) x--;
	do { x++; } while (x < 3);
	return;
}
