/* struct module`name: the kernel's types are one BTF namespace, so the
 * module only scopes the name; a struct no BTF has (that of a module not
 * loaded) is an error naming it. */
BEGIN
{
	s = (struct vmlinux`task_struct *)curthread;
	trace(sizeof(struct vmlinux`file) > 0);
	u = (union vmlinux`bpf_attr *)0;
	t = (struct can`dev_rcv_lists *)NULL;
}
