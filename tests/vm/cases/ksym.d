/*
 * A kernel variable by its backquoted name: BTF gives it no type, so the
 * script casts its address; libbpf resolves the address from kallsyms.
 * This machine's kernel lists no data symbols in kallsyms, so only the
 * guest runs it.
 * vm-host: skip
 */
BEGIN
{
	printf("jiffies_ticking=%d\n", *(unsigned long *)&`jiffies > 0);
	exit(0);
}
