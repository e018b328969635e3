/* A struct whose first definition fails (the bit-field's width is not a
 * constant) and is then defined again, with more members: the second
 * definition starts from no members, and the variable of that type works. */
struct pt { int x; unsigned int f : &3; };
struct pt { int x; int y; int z; unsigned int f : 3; };
struct pt g;
BEGIN { print(g); print(g.z); }
