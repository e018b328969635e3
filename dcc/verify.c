/* placeholder: `dcc verify` is being written (issue 4) */
#include <stdio.h>
#include "compile.h"

int verify_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "dcc: error: verify is not implemented yet\n");
	return 2;
}
