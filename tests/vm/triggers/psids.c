/*
 * psids FILE [UID GID [ARG...]]: (as root) switches to UID and GID (default
 * 1234/4321), calls getppid() exactly once, then writes what it knows about
 * itself to FILE as "key=value" words on one line: pid, ppid, tid, pgid, sid,
 * uid, gid, comm and last args (its argv joined by spaces, the value
 * curpsinfo->pr_psargs shows). tests/vm/run.sh turns each key into a
 * placeholder @key@ of a case's expected output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	uid_t uid = argc > 2 ? (uid_t)atoi(argv[2]) : 1234;
	gid_t gid = argc > 3 ? (gid_t)atoi(argv[3]) : 4321;
	char comm[32] = "";
	FILE *f, *c;

	if (argc < 2 || !(f = fopen(argv[1], "w")))
		return 1;
	c = fopen("/proc/self/comm", "r");
	if (!c || !fgets(comm, sizeof(comm), c))
		return 1;
	fclose(c);
	comm[strcspn(comm, "\n")] = 0;
	if (setresgid(gid, gid, gid) || setresuid(uid, uid, uid))
		return 1;
	int ppid = (int)getppid();
	fprintf(f, "pid=%d ppid=%d tid=%d pgid=%d sid=%d uid=%d gid=%d comm=%s args=", (int)getpid(),
		ppid, (int)gettid(), (int)getpgid(0), (int)getsid(0), (int)getuid(), (int)getgid(),
		comm);
	for (int i = 0; i < argc; i++)
		fprintf(f, "%s%s", i ? " " : "", argv[i]);
	fputc('\n', f);
	return fclose(f) ? 1 : 0;
}
