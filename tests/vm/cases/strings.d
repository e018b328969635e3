/*
 * The string subroutines (bpf_loop() callbacks for the loops) on a path
 * openat(2) is given, copied in and cut, searched and converted.
 * vm-cmd: open_paged 1 no/such//dir/File.Name-42.txt/
 */
syscall::openat:entry
/pid == $target/
{
	this->p = copyinstr(arg1);
}

syscall::openat:entry
/pid == $target && this->p == "no/such//dir/File.Name-42.txt/"/
{
	printf("%d|%s|%s|%s|%s|%s\n", strlen(this->p), strjoin(this->p, "+"), substr(this->p, 3),
	    substr(this->p, -4), substr(this->p, 3, -3), strjoin(execname, "!"));
	printf("%s|%s|%s|%s|%s\n", basename(this->p), dirname(this->p), toupper(this->p),
	    tolower(this->p), cleanpath(this->p));
}

syscall::openat:entry
/pid == $target && this->p == "no/such//dir/File.Name-42.txt/"/
{
	this->q = substr(this->p, 9, 3);
	/* a search that finds nothing is NULL, which faults where printed */
	printf("%d|%d|%d|%d|%s|%d|%d|%d\n", index(this->p, "/"), rindex(this->p, "/"),
	    index(this->p, "/", 4), rindex(this->p, "/", 10), strstr(this->p, "dir"),
	    strstr(this->p, "zz") == NULL, rindex(this->p, this->q), index(this->p, this->q, 10));
	printf("%s|%s|%s|%s|%s|%d|%d\n", strchr(this->p, '.'), strrchr(this->p, '.'),
	    lltostr(arg3, 8), lltostr(arg3 - 300), lltostr(arg3, 16),
	    strtoll(substr(this->p, rindex(this->p, "-"))),
	    strtoll(substr(this->p, rindex(this->p, "-") + 1), 16));
}
