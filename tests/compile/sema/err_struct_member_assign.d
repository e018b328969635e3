/* a struct member takes a whole struct of its own type by =, nothing else */
struct pt { int x, y; };
struct seg { struct pt from; struct pt to; };
struct other { int x, y; };
struct seg S;
this struct other o;
BEGIN
{
	S.to = this->o;
	S.from += S.to;
	S.to = 0;
}
