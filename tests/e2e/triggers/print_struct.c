/*
 * print_struct: one write(2) to /dev/null of a struct holding every kind of
 * member print() shows (ints, a char array, a union, a nested struct, a
 * pointer, an enum, bit-fields, a double), so a syscall::write:entry probe
 * can copyin() it and print() it. test_print.c declares the same struct in D.
 */
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

enum eh { FIRSTVAL = 0, SECONDVAL = 1, THIRDVAL = 3 };

struct test_struct {
	int a;
	char b[5];
	union {
		unsigned char c;
		uint64_t d;
	} u;
	struct {
		void *e;
		uint64_t f;
	} s;
	int g;
	enum eh h;
	unsigned int bf1 : 3, bf2 : 5;
	short neg;
	double x;
};

int main(void)
{
	static struct test_struct t = {
		.a = 1, .b = "test", .u.d = 123456789,
		.s = { (void *)0xffff9b7aca7e0000, 987654321 },
		.h = SECONDVAL, .bf2 = 9, .neg = -2, .x = 1.5,
	};
	int fd = open("/dev/null", O_WRONLY);

	if (fd < 0)
		return 1;
	return write(fd, &t, sizeof(t)) == (ssize_t)sizeof(t) ? 0 : 1;
}
