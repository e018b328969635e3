/*
 * fd_table PATH: opens PATH twice, read-only as fd 20 and read-write with
 * O_APPEND as fd 21 (fixed numbers: a runner may pass descriptors down),
 * moves fd 21 77 bytes in, and calls getppid() once with both open: the
 * test reads fds[] of the two, of one never opened and of a negative one.
 */
#include <fcntl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	int ro = open(argv[1], O_RDONLY | O_CREAT, 0600);
	int rw = open(argv[1], O_RDWR | O_APPEND);
	if (ro < 0 || rw < 0 || dup2(ro, 20) != 20 || dup2(rw, 21) != 21 ||
	    lseek(21, 77, SEEK_SET) != 77)
		return 1;
	getppid();
	return 0;
}
