/*
 * ids FILE [UID GID]: (as root) switches to UID and GID (default 1234/4321),
 * calls getppid() exactly once, then writes
 * "pid=P ppid=Q tid=T uid=U gid=G comm=ids\n" about itself to FILE, so a
 * script tracing that call can print the same line from its built-in
 * variables and the test compares the two.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	uid_t uid = argc > 2 ? (uid_t)atoi(argv[2]) : 1234;
	gid_t gid = argc > 3 ? (gid_t)atoi(argv[3]) : 4321;
	FILE *f;

	if (argc < 2 || !(f = fopen(argv[1], "w")))
		return 1;
	if (setresgid(gid, gid, gid) || setresuid(uid, uid, uid))
		return 1;
	int ppid = (int)getppid();
	fprintf(f, "pid=%d ppid=%d tid=%d uid=%d gid=%d comm=ids\n", (int)getpid(), ppid,
		(int)gettid(), (int)getuid(), (int)getgid());
	return fclose(f) ? 1 : 0;
}
