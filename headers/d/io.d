/*
 * The io provider's argument shapes in DTrace's form: bufinfo_t, devinfo_t
 * and fileinfo_t, with the B_* flags. io:::start and io:::done fire on the
 * block layer's request tracepoints (block_rq_issue, block_rq_complete), so
 * args[0] and args[1] are translated from the struct request they pass,
 * through CO-RE; args[2] is a fileinfo_t of no file, as in DTrace for Linux
 * (the block layer does not know which file an I/O is for).
 *
 * b_flags holds B_READ or B_WRITE (the request's operation, as the kernel's
 * op_is_write() tells them apart) and B_ASYNC unless the request is
 * synchronous (REQ_SYNC). b_blkno is the first 512-byte sector on the disk.
 * b_addr and b_iodone are addresses (uintptr_t), not DTrace's caddr_t, which
 * dcc would read as a string.
 */

typedef struct bufinfo {
	int b_flags;		/* B_READ or B_WRITE, B_ASYNC */
	size_t b_bcount;	/* bytes of the request */
	uintptr_t b_addr;	/* buffer address: unknown on Linux, 0 */
	uint64_t b_lblkno;	/* first sector */
	uint64_t b_blkno;	/* first sector */
	size_t b_resid;		/* bytes not transferred: 0 */
	size_t b_bufsize;	/* bytes of the request */
	uintptr_t b_iodone;	/* completion routine: the request's end_io */
	int b_error;		/* error: 0 */
	uint32_t b_edev;	/* the device (partition), kernel encoding */
} bufinfo_t;

inline int B_BUSY = 0x000001;
inline int B_DONE = 0x000002;
inline int B_ERROR = 0x000004;
inline int B_PAGEIO = 0x000010;
inline int B_PHYS = 0x000020;
inline int B_READ = 0x000040;
inline int B_WRITE = 0x000100;
inline int B_ASYNC = 0x000400;

typedef struct devinfo {
	int dev_major;		/* major number */
	int dev_minor;		/* minor number */
	int dev_instance;	/* instance number: 0 */
	string dev_name;	/* the disk's driver, e.g. "virtio_blk" */
	string dev_statname;	/* disk or partition name, e.g. "vda", "nvme0n1p2" */
	string dev_pathname;	/* "/dev/" and dev_statname */
} devinfo_t;

typedef struct fileinfo {
	string fi_name;		/* basename of fi_pathname */
	string fi_dirname;	/* dirname of fi_pathname */
	string fi_pathname;	/* full pathname */
	int64_t fi_offset;	/* offset within the file */
	string fi_fs;		/* file system */
	string fi_mount;	/* mount point of the file system */
	int fi_oflags;		/* open(2) flags */
} fileinfo_t;

translator bufinfo_t < struct request *R > {
	b_flags = ((int)R->cmd_flags & 1 ? B_WRITE : B_READ) |
		  ((int)R->cmd_flags & 0x800 ? 0 : B_ASYNC);
	b_bcount = R->__data_len;
	b_addr = 0;
	b_lblkno = R->__sector;
	b_blkno = R->__sector;
	b_resid = 0;
	b_bufsize = R->__data_len;
	b_iodone = (uintptr_t)R->end_io;
	b_error = 0;
	b_edev = R->part != 0 ? R->part->bd_dev : 0;
};

translator devinfo_t < struct request *R > {
	dev_major = R->part != 0 ? getmajor(R->part->bd_dev) : 0;
	dev_minor = R->part != 0 ? getminor(R->part->bd_dev) : 0;
	dev_instance = 0;
	dev_name = R->part == 0 ? "<none>" :
		   R->part->bd_disk->part0->bd_device.parent == 0 ? "<none>" :
		   R->part->bd_disk->part0->bd_device.parent->driver == 0 ? "<none>" :
		   stringof(R->part->bd_disk->part0->bd_device.parent->driver->name);
	dev_statname = R->part != 0 ? stringof(R->part->bd_device.kobj.name) : "<none>";
	dev_pathname = R->part != 0 ? strjoin("/dev/", stringof(R->part->bd_device.kobj.name))
				       : "<none>";
};

translator fileinfo_t < struct file *F > {
	fi_name = F == 0 ? "<none>" : stringof(F->f_path.dentry->d_name.name);
	/* DTrace takes dirname() of fi_pathname, "<unknown>": that is "." */
	fi_dirname = F == 0 ? "<none>" : ".";
	fi_pathname = F == 0 ? "<none>" : "<unknown>";
	fi_offset = F == 0 ? 0 : F->f_pos;
	fi_fs = F == 0 ? "<none>" : stringof(F->f_path.mnt->mnt_sb->s_type->name);
	fi_mount = F == 0 ? "<none>" : "<unknown>";
	fi_oflags = F == 0 ? 0 : F->f_flags;
};

/* args[0], args[1] and args[2] of io probes (sema_io.c expands them) */
inline bufinfo_t *__io_bufinfo = xlate <bufinfo_t *> ((struct request *)arg0);
inline devinfo_t *__io_devinfo = xlate <devinfo_t *> ((struct request *)arg0);
inline fileinfo_t *__io_fileinfo = xlate <fileinfo_t *> ((struct file *)0);

/*
 * fds[fd]: the fileinfo_t of the current thread's open file fd, as DTrace
 * has it; an fd outside the thread's file table (negative, or past
 * max_fds) or not open is the fileinfo_t of no file ("<none>" names).
 */
inline fileinfo_t fds[int fd] = xlate <fileinfo_t> (
	fd >= 0 && fd < curthread->files->fdt->max_fds ? curthread->files->fdt->fd[fd] :
	(struct file *)0);
