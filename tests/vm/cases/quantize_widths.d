/*
 * quantize() of a value of every width on both sides of 0 (the bucket is a
 * table lookup): call i of 256 quantizes 2^k, 2^k - 1, -2^k and 1 - 2^k by
 * i & 3, k = i >> 2, 2^63 being -2^63. Every bucket is in one histogram.
 * vm-cmd: getppid_n 256
 */
#pragma D option quiet
#pragma D option encoding=ascii

self int64_t i;

syscall::getppid:entry
/pid == $target/
{
	this->p = (int64_t)1 << (self->i >> 2);
	this->m = self->i & 3;
	@ = quantize(this->m == 0 ? this->p : this->m == 1 ? this->p - 1 :
	    this->m == 2 ? -this->p : 1 - this->p);
	self->i++;
}
