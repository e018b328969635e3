/* fuzz seed: print() of D's own types (members, arrays, enums, bit-fields,
 * nested structs, unions, pointers), one record per clause */
enum shade { DARK, LIGHT = 7, BRIGHT };

struct inner {
	uint8_t flags : 3;
	uint8_t mode : 5;
	int16_t delta;
};

struct outer {
	int id;
	char tag[6];
	enum shade shade;
	struct inner in;
	uint64_t words[3];
	void *ptr;
	int64_t neg;
};

union either {
	uint32_t u;
	char c[4];
};

BEGIN
{
	this->o = (struct outer *)alloca(sizeof (struct outer));
	this->o->id = 42;
	this->o->shade = LIGHT;
	this->o->words[1] = 0xfeedfacecafe;
	this->o->neg = -5;
	print(*this->o);
}

BEGIN
{
	this->e = (union either *)alloca(sizeof (union either));
	this->e->u = 0x41424344;
	print(*this->e);
	print(this->e->c);
	print((enum shade)BRIGHT);
}

syscall::openat:entry
{
	print(*curthread->mm);
	print(curpsinfo->pr_fname);
	exit(0);
}
