/*
 * The io provider on the kernel: the io_direct trigger writes and reads
 * back 16 blocks of 4 KiB with O_DIRECT in the scratch directory; the bytes
 * io:::start counts while the trigger is in pwrite(2)/pread(2), and the
 * bytes io:::done counts for those same requests, must be exactly what it
 * moved, per direction, on the device stat(2) gives for the directory.
 * Skipped where the scratch directory is on no block-layer (blk-mq) disk.
 */
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "e2e.h"

#define NBLOCKS 16

static const char io_script[] =
	"syscall::pwrite64:entry, syscall::pread64:entry /pid == $target/ { self->in = 1; }\n"
	"syscall::pwrite64:return, syscall::pread64:return /pid == $target/ { self->in = 0; }\n"
	"io:::start\n/self->in/\n{\n"
	"	issued[arg0] = 1;\n"
	"	this->d = args[0]->b_flags & B_WRITE ? \"W\" : \"R\";\n"
	"	@start[this->d, args[1]->dev_major, args[1]->dev_minor] = sum(args[0]->b_bcount);\n"
	"}\n"
	"io:::done\n/issued[arg0]/\n{\n"
	"	issued[arg0] = 0;\n"
	"	this->d = args[0]->b_flags & B_READ ? \"R\" : \"W\";\n"
	"	@done[this->d, getmajor(args[0]->b_edev), getminor(args[0]->b_edev)] =\n"
	"	    sum(args[0]->b_bcount);\n"
	"}\n"
	"END\n{\n"
	"	printa(\"start %s %d %d %@d\\n\", @start);\n"
	"	printa(\"done %s %d %d %@d\\n\", @done);\n"
	"}\n";

/* The scratch directory's disk, if the block layer's requests serve it. */
static bool blk_mq_disk(unsigned *maj, unsigned *min)
{
	struct stat st;
	cr_assert_eq(stat(e2e_tmp("."), &st), 0, "stat %s: %s", e2e_tmp("."), strerror(errno));
	*maj = major(st.st_dev);
	*min = minor(st.st_dev);
	if (!*maj)
		return false;
	/* a disk has mq/ in sysfs, a partition has it in its disk's folder */
	struct stat mq;
	return !stat(e2e_fmt("/sys/dev/block/%u:%u/mq", *maj, *min), &mq) ||
	       !stat(e2e_fmt("/sys/dev/block/%u:%u/../mq", *maj, *min), &mq);
}

E2E_TEST(io, direct_writes_and_reads_counted_per_direction_on_the_files_device)
{
	unsigned maj, min;
	if (!blk_mq_disk(&maj, &min))
		cr_skip_test("the scratch directory %s is on device %u:%u, not a blk-mq disk",
			     e2e_tmp("."), maj, min);
	const char *obj = e2e_build("io_direct", io_script);
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "%s %s %d", e2e_trigger("io_direct"), e2e_tmp("io.dat"),
		 NBLOCKS);
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", "-c", cmd, obj, NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	int n = NBLOCKS * 4096;
	char *want = e2e_fmt("start R %u %u %d\nstart W %u %u %d\n"
			     "done R %u %u %d\ndone W %u %u %d\n\n",
			     maj, min, n, maj, min, n, maj, min, n, maj, min, n);
	e2e_assert_bytes("output", r.out, want);
	run_result_free(&r);
}

E2E_TEST(io, device_names_and_no_file)
{
	unsigned maj, min;
	if (!blk_mq_disk(&maj, &min))
		cr_skip_test("the scratch directory %s is on device %u:%u, not a blk-mq disk",
			     e2e_tmp("."), maj, min);
	const char *obj = e2e_build("io_names",
		"io:::start\n/pid == $target && args[1]->dev_major != 0/\n{\n"
		"	printf(\"%s|%s|%s|%d|%s|%s|%d|%d\\n\", args[1]->dev_statname,\n"
		"	       args[1]->dev_pathname, args[2]->fi_name, args[1]->dev_instance,\n"
		"	       args[2]->fi_pathname, args[2]->fi_fs, args[2]->fi_offset,\n"
		"	       args[0]->b_edev == ((args[1]->dev_major << 20) | args[1]->dev_minor));\n"
		"	exit(0);\n"
		"}\n");
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "%s %s 1", e2e_trigger("io_direct"), e2e_tmp("io1.dat"));
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-q", "-c", cmd, obj, NULL);
	cr_assert_eq(r.status, 0, "status %d\n%s", r.status, r.err);
	/* the disk's or partition's name, as sysfs names it */
	char link[512], *name;
	ssize_t len = readlink(e2e_fmt("/sys/dev/block/%u:%u", maj, min), link, sizeof(link) - 1);
	cr_assert_gt(len, 0, "no /sys/dev/block/%u:%u", maj, min);
	link[len] = 0;
	name = strrchr(link, '/') + 1;
	e2e_assert_bytes("output", r.out,
			 e2e_fmt("%s|/dev/%s|<none>|0|<none>|<none>|0|1\n\n", name, name));
	run_result_free(&r);
}

/*
 * fds[fd]: the calling thread's open files as fileinfo_t. fd_table opens
 * its file read-only as fd 20 and read-write/append as fd 21 at offset 77,
 * then calls getppid(); fd 60 is not
 * open and -1 is no descriptor: both are the fileinfo_t of no file. The
 * directory and path are DTrace's: "." and "<unknown>".
 */
E2E_TEST(io, fds_array_describes_the_open_files_of_the_thread)
{
	const char *obj = e2e_build("fds",
		"#pragma D option quiet\n"
		"syscall::getppid:entry /pid == $target/\n"
		"{\n"
		"	printf(\"%s %d %x %s %s %s\\n\", fds[20].fi_name, fds[20].fi_offset,\n"
		"	    fds[20].fi_oflags & 0x403, fds[20].fi_dirname, fds[20].fi_pathname,\n"
		"	    fds[20].fi_mount);\n"
		"	printf(\"%s %d %x\\n\", fds[21].fi_name, fds[21].fi_offset,\n"
		"	    fds[21].fi_oflags & 0x403);\n"
		"	printf(\"%s %s %d %x\\n\", fds[60].fi_name, fds[60].fi_fs,\n"
		"	    fds[60].fi_offset, fds[60].fi_oflags);\n"
		"	this->fd = -1;\n"
		"	printf(\"%s %s\\n\", fds[this->fd].fi_name, fds[this->fd].fi_dirname);\n"
		"}\n");
	struct run_result r;
	e2e_run(&r, DTRUN_BIN, "-c", e2e_fmt("%s %s", e2e_trigger("fd_table"), e2e_tmp("fds.dat")),
		obj, NULL);
	e2e_expect(&r, 0, "fds.dat 0 0 . <unknown> <unknown>\nfds.dat 77 402\n"
		   "<none> <none> 0 0\n<none> <none>\n\n");
	run_result_free(&r);
}
