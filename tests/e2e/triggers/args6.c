/*
 * args6: one sendto(2) with six recognisable arguments
 * (-1, 0x1111, 0x2222, 0x3333, 0x4444, 0x5555); it fails (bad descriptor),
 * but the syscall entry probe sees all six.
 */
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	long r = syscall(SYS_sendto, -1L, 0x1111L, 0x2222L, 0x3333L, 0x4444L, 0x5555L);

	return r == -1 ? 0 : 1;
}
