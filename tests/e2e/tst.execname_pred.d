/*
 * String comparison in predicates. The pid test keeps helpers that share the
 * trigger's name but not its pid (LeakSanitizer's tracer task in an ASan
 * build) out of the count; the other two clauses must never match.
 */
syscall::getppid:entry
/execname == "getppid_n" && pid == $target/
{
	@[execname] = count();
}

syscall::getppid:entry
/execname != "getppid_n" && pid == $target/
{
	@["mismatch"] = count();
}

syscall::getppid:entry
/execname == "getppid_" && pid == $target/
{
	@["prefix matched"] = count();
}
