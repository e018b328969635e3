/* A bit-field is an integer: a float one is refused by its type, and an
 * unnamed one wider than its type by its width; both are named as unnamed. */
struct odd {
	float : 1;
};
struct wide {
	int : 40;
	int ok : 3;
};
BEGIN { exit(0); }
