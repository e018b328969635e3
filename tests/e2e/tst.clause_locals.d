/* this-> clause-locals, shared by the clauses of one firing. */
BEGIN
{
	this->x = 5;
	this->y = this->x * 3;
	this->s = "local";
}

BEGIN
{
	printf("%d %d %s\n", this->x, this->y, this->s);
	exit(0);
}
