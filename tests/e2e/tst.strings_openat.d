/*
 * The string subroutines on the path the open_paged trigger gives openat(2)
 * ("no/such//dir/File.Name-42.txt/"), copied in once and shared by the
 * clauses through this->.
 */
#pragma D option quiet

syscall::openat:entry
/pid == $target/
{
	this->p = copyinstr(arg1);
}

syscall::openat:entry
/pid == $target && this->p == "no/such//dir/File.Name-42.txt/"/
{
	printf("%d|%s|%s|%s|%s|%s|%s\n", strlen(this->p), strjoin(this->p, "+"),
	    substr(this->p, 3), substr(this->p, -4), substr(this->p, 2, 5),
	    substr(this->p, 3, -3), strjoin(execname, "!"));
}

syscall::openat:entry
/pid == $target && this->p == "no/such//dir/File.Name-42.txt/"/
{
	printf("%s|%s|%s|%s|%s\n", basename(this->p), dirname(this->p), toupper(this->p),
	    tolower(this->p), cleanpath(this->p));
}

syscall::openat:entry
/pid == $target && this->p == "no/such//dir/File.Name-42.txt/"/
{
	this->q = substr(this->p, 9, 3);
	/* a search that finds nothing is NULL, which faults where printed */
	printf("%d|%d|%d|%d|%s|%s|%d|%d|%d|%d\n", index(this->p, "/"),
	    rindex(this->p, "/"), index(this->p, "/", 4), rindex(this->p, "/", 10),
	    strstr(this->p, "dir"), strstr(this->p, "x"), strstr(this->p, "zz") == NULL,
	    index(this->p, this->p), rindex(this->p, this->q), index(this->p, this->q, 10));
}

syscall::openat:entry
/pid == $target && this->p == "no/such//dir/File.Name-42.txt/"/
{
	printf("%s|%s|%d|%s|%s|%s|%s|%s\n", strchr(this->p, '.'), strrchr(this->p, '.'),
	    strchr(this->p, 'Z') == NULL, lltostr(arg3, 8), lltostr(arg2), lltostr(arg3 - 300),
	    lltostr(arg3, 16), lltostr(arg3, 2));
	printf("%d|%d|%d|%s|%s|%s\n", strtoll(substr(this->p, rindex(this->p, "-"))),
	    strtoll(substr(this->p, rindex(this->p, "-") + 1), 16), strtoll(this->p),
	    strtok(this->p, "/"), strtok(NULL, "/."), strtok(NULL, "-"));
}
