/* dlib_tree_gen OUT: the D library (headers/d) parsed as a compile would
 * parse it, written to OUT as C (dlib_write_tree), which dcc includes. Run
 * when dcc is built, by the same compiler, so struct node's layout is the
 * one dcc reads. */
#include <stdio.h>

#include "compile.h"
#include "dlib.h"

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: dlib_tree_gen OUT.h\n");
		return 2;
	}
	FILE *out = fopen(argv[1], "w");
	if (!out) {
		perror(argv[1]);
		return 1;
	}
	struct dlib *d = compile_dlib_parse();
	dlib_write_tree(out, d);
	compile_dlib_free(d);
	if (fclose(out)) {
		perror(argv[1]);
		return 1;
	}
	return 0;
}
