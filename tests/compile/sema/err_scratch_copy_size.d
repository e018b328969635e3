/* bcopy() and copyinto() write into what alloca() and copyin() took
 * before them in the clause, each rounded to 8 bytes */
BEGIN
{
	this->p = alloca(4);
	bcopy(&`max_threads, this->p, 8);
	bcopy(&`max_threads, this->p, 16);
	this->q = copyin(0, 8);
	copyinto(0, 16, this->p);
	copyinto(0, 17, this->p);
}

BEGIN
{
	bcopy(&`max_threads, alloca(8), 8);
	bcopy(&`max_threads, alloca(8), 24);
}
