/*
 * The x86_64 syscall table (syscalls_gen.h, generated from unistd_64.h at
 * build time) -> syscall names by number and numbers by position.
 */
#include <stddef.h>

#include "syscall.h"
#include "syscalls_gen.h"

#define NSYSCALLS (int)(sizeof(syscall_table) / sizeof(syscall_table[0]))

const char *syscall_name(int nr)
{
	for (int i = 0; i < NSYSCALLS; i++)
		if (syscall_table[i].nr == nr)
			return syscall_table[i].name;
	return NULL;
}

int syscall_max_nr(void)
{
	return syscall_table[NSYSCALLS - 1].nr;
}

int syscall_count(void)
{
	return NSYSCALLS;
}

const char *syscall_nth(int i, int *nr)
{
	*nr = syscall_table[i].nr;
	return syscall_table[i].name;
}
