/* A tag declared ahead of its definition: pointers to it may be made
 * before the members are known, and the definition completes that same
 * type. A forward declaration of a kernel tag keeps the kernel's type. */
struct chain_link;
struct list {
	struct chain_link *head;
	int len;
};
struct chain_link {
	struct chain_link *next;
	long value;
};
union chain_cell;
union chain_cell { int i; char c[6]; };
struct task_struct;

struct list l;

BEGIN
{
	l.len = sizeof(struct chain_link) + sizeof(union chain_cell);
	trace(l.head == NULL ? l.len : l.head->value);
	trace(((struct task_struct *)curthread)->pid);
	exit(0);
}
