/*
 * Declarations D takes from C: kernel functions and variables declared
 * extern (function pointers, variadic parameters, an incomplete array, an
 * implicit int), DTrace's short unsigned type names and the kernel's own
 * typedef names in casts and declarations.
 */
extern int count_fn(void);
extern long *ptr_fn(int, char *);
extern int logf_fn(const char *, ...);
extern void (*hook)(int);
extern int table[];
extern int grid[4][8];
extern answer;

struct ops {
	int (*open)(void);
	long (*calls[3])(int, ...);
};

self hits;
this bool seen;

BEGIN
{
	trace(sizeof(struct ops));
	trace((uchar_t)300);
	trace((ushort_t)70000);
	trace((uint_t)-1);
	trace((ulong_t)-1);
	trace((u_longlong_t)1);
	trace((ptrdiff_t)-1);
	trace((uint)-1);
	trace(sizeof(u_int *));
	self->hits++;
	exit(self->hits++);
}
