/* The D library's tree as parsed when dcc was built (dlib_tree.h, made by
 * dlib_tree_gen from headers/d), decoded into a compile's arena: the same
 * nodes dlib_parse makes, for a copy and a pointer pass instead of lexing
 * and parsing 45 KB of D at every start. */
#include "dlib.h"

#include "dlib_tree.h"

void dlib_prebuilt(struct diag *dg, struct lib *lib)
{
	/* the literal's own NUL is not the blob's */
	dlib_decode(dg, lib, dlib_tree_blob, sizeof(dlib_tree_blob) - 1, dlib_tree_n);
}
