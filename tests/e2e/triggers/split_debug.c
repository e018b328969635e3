/*
 * split_debug [MS]: calls getppid() once from below a static function, inner_call(),
 * whose name the build keeps only in a detached debug file: tests/CMakeLists
 * moves the symbols into split_debug.debug beside the executable, strips it
 * and links the two with .gnu_debuglink (as distributions ship their
 * libraries: .dynsym in the file, .symtab in a -dbg package). Then it
 * lives MS milliseconds more (default 500), so that a tracer can still read
 * its mappings when it prints the stack.
 */
#include <stdlib.h>
#include <unistd.h>

/* getppid() keeps no frame of its own: a frame-pointer walk from inside
 * it finds its caller's caller, so the static function is one call up */
__attribute__((noinline)) int syscall_once(void)
{
	return (int)getppid() > 0;
}

__attribute__((noinline)) static int inner_call(void)
{
	return syscall_once() + 1 == 2;
}

/* called through a volatile pointer: not inlined, still a frame */
static int (*volatile call)(void) = inner_call;

int main(int argc, char **argv)
{
	int ok = call();

	usleep(1000 * (unsigned)(argc > 1 ? atoi(argv[1]) : 500));
	return ok ? 0 : 1;
}
