/*
 * fbt: fentry/fexit on a kernel function, with its arguments typed from
 * the function's BTF prototype (args[2] is vfs_write's size_t count) and
 * the return value in args[1] on return. The machine's own kernel refuses
 * fentry, so this runs only in the guest.
 * vm-cmd: write_n 3
 * vm-host: skip
 */
fbt::vfs_write:entry
/pid == $target/
{
	self->count = args[2];
	printf("%s:%s count=%d pos_set=%d\n", probefunc, probename, args[2], args[3] != 0);
}

fbt::vfs_write:return
/self->count/
{
	printf("%s:%s ret=%d\n", probefunc, probename, args[1]);
	self->count = 0;
}
