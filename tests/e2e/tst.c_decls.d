/*
 * C's declarations in D: an extern function, function pointers as struct
 * members, an implicit int, DTrace's short unsigned names and the kernel's
 * typedefs in casts; a char array of a translated struct indexed; a global
 * first assigned by an increment in exit()'s argument, read in a predicate.
 */
#pragma D option quiet

extern int jiffies_fn(void);

struct ops {
	int (*open)(void);
	long (*calls[3])(int, ...);
	char tag;
};

self hits;

BEGIN
/x == 0/
{
	printf("%d %d %d %d\n", (uchar_t)300, (ushort_t)70000, (uint)-1 == 4294967295 ? 1 : 0,
	    sizeof(struct ops));
	printf("%u %d\n", (uint_t)-1, (ptrdiff_t)-1);
	printf("%c%c\n", curlwpsinfo->pr_name[0], curlwpsinfo->pr_name[1]);
	self->hits++;
	printf("%d\n", self->hits);
	exit(x++);
}
