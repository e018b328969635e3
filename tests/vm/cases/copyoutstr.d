/*
 * copyoutstr(): "hello" and its NUL written over the start of the destr
 * trigger's buffer; the bytes after the NUL are left as they were.
 * vm-cmd: destr copyout
 * vm-args: -q -w
 * vm-host: skip
 */
syscall::pwrite64:entry
/pid == $target/
{
	copyoutstr("hello", arg1, 16);
}
