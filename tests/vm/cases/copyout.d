/*
 * copyout(): the destr trigger pwrite()s "0123456789abcdef" from a buffer
 * it prints afterwards; the script copies the buffer's second half over its
 * first. This machine's kernel is locked down and refuses
 * bpf_probe_write_user(), so only the guest runs it.
 * vm-cmd: destr copyout
 * vm-args: -q -w
 * vm-host: skip
 */
syscall::pwrite64:entry
/pid == $target/
{
	copyout(copyin(arg1 + 8, 8), arg1, 8);
}
