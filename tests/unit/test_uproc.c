/*
 * loader/uproc.c's screen of a function's first instruction: what x86-64's
 * uprobes refuse and can be told from the bytes (lock and ES/CS/SS/DS
 * prefixes, int3, int1, hlt), and ordinary first instructions let through.
 */
#include <criterion/criterion.h>

#include "internal.h"

#define REFUSED(...)                                                                     \
	do {                                                                             \
		const uint8_t b[] = { __VA_ARGS__ };                                     \
		cr_expect(uproc_insn_refused(b, sizeof(b)), "%s refused", #__VA_ARGS__); \
	} while (0)
#define TAKEN(...)                                                                       \
	do {                                                                             \
		const uint8_t b[] = { __VA_ARGS__ };                                     \
		cr_expect(!uproc_insn_refused(b, sizeof(b)), "%s taken", #__VA_ARGS__); \
	} while (0)

#if defined(__x86_64__)
Test(uproc, refused_first_instructions)
{
	REFUSED(0xf0, 0xff, 0x0f);		  /* lock decl (%rdi) */
	REFUSED(0x66, 0xf0, 0x0f, 0xb1, 0x17);	  /* lock prefix after an operand size one */
	REFUSED(0x2e, 0x0f, 0x1f, 0x84, 0, 0, 0); /* cs nopw */
	REFUSED(0x3e, 0xff, 0xe0);		  /* notrack jmp *%rax (a DS prefix) */
	REFUSED(0x26, 0x8b, 0x07);
	REFUSED(0x36, 0x8b, 0x07);
	REFUSED(0xcc);
	REFUSED(0xf4);
	REFUSED(0xf1);
}

Test(uproc, ordinary_first_instructions)
{
	TAKEN(0x55);				/* push %rbp */
	TAKEN(0xf3, 0x0f, 0x1e, 0xfa);		/* endbr64 */
	TAKEN(0x48, 0x83, 0xec, 0x08);		/* sub $8,%rsp */
	TAKEN(0x64, 0x48, 0x8b, 0x04, 0x25, 0x28, 0, 0, 0); /* mov %fs:0x28,%rax */
	TAKEN(0x41, 0x57);			/* push %r15 */
	TAKEN(0xc3);				/* ret */
}
#endif
