/* String comparison in a predicate: no $target needed. */
syscall::getppid:entry
/execname == "getppid_n"/
{
	@[execname] = count();
}

syscall::getppid:entry
/execname != "getppid_n" && pid == $target/
{
	@["mismatch"] = count();
}
