/*
 * chdir_n DIR...: for each DIR, changes to it and calls getppid() once, so
 * a tracer sees the working directory at each call. A DIR written "-NAME"
 * is made (mode 0700) in the current directory, entered and removed, so the
 * call runs in a deleted directory. Exits 1 when a step fails.
 */
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *d = argv[i];
		char here[4096], path[8192];
		if (d[0] == '-') {
			d++;
			if (!getcwd(here, sizeof(here))) {
				perror("getcwd");
				return 1;
			}
			snprintf(path, sizeof(path), "%s/%s", here, d);
			if (mkdir(path, 0700) || chdir(path) || rmdir(path)) {
				perror(path);
				return 1;
			}
		} else if (chdir(d)) {
			perror(d);
			return 1;
		}
		getppid();
	}
	return 0;
}
