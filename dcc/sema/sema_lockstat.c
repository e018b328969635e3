/*
 * The lockstat provider on the kernel's lock contention tracepoints (5.19+):
 * contention_begin(lock, flags) and contention_end(lock, ret). Codegen
 * (cg_lockstat.c) records each begin per thread and lock; each probe here is
 * the matching contention_end, filtered by the begin's LCB_F_* flags, with
 * arg0 the lock's address, arg1 the nanoseconds spent spinning or blocked
 * and, for rw-*, arg2 1 for a reader and 0 for a writer (Solaris's
 * RW_READER and RW_WRITER); arg3 is the flags.
 *
 * A mutex reports an optimistic spin (LCB_F_MUTEX | LCB_F_SPIN) and, when it
 * must sleep after all, a second begin without the spin flag: the last
 * begin before the end decides, so a spin that gave up is seen as the block
 * that followed it (adaptive-block, timed from the block's start). rt_mutex
 * (LCB_F_RT) blocks as adaptive-block; qspinlock is spin-spin, qrwlock
 * rw-spin and rw_semaphore and percpu_rw_semaphore rw-block. The acquire and
 * release probes would need a probe on every lock function (DTrace for
 * Linux uses fbt); the kernel's lock:lock_acquire and lock_release
 * tracepoints exist only with CONFIG_LOCKDEP, a debugging option that
 * costs every lock operation and that distribution kernels (this machine's,
 * Debian's 6.1) leave off. So they are refused by name, saying why.
 */
#include <string.h>

#include "diag.h"
#include "proc_prov.h"
#include "sema_internal.h"

#define N PROC_SRC_NONE
#define SRC { 0, PROC_SRC_LKTIME, PROC_SRC_LKREADER, PROC_SRC_LKFLAGS }
#define ARGS2 { "__dcc_lockstat_lock", "__dcc_lockstat_time" }
#define ARGS3 { "__dcc_lockstat_lock", "__dcc_lockstat_time", "__dcc_lockstat_reader" }

static const struct proc_probe locks[] = {
	{ "lockstat", "adaptive-block", PA_TP_BTF, "contention_end", SRC,
	  "__dcc_lockstat_adaptive_block", ARGS2, NULL },
	{ "lockstat", "adaptive-spin", PA_TP_BTF, "contention_end", SRC,
	  "__dcc_lockstat_adaptive_spin", ARGS2, NULL },
	{ "lockstat", "rw-block", PA_TP_BTF, "contention_end", SRC, "__dcc_lockstat_rw_block",
	  ARGS3, NULL },
	{ "lockstat", "rw-spin", PA_TP_BTF, "contention_end", SRC, "__dcc_lockstat_rw_spin",
	  ARGS3, NULL },
	{ "lockstat", "spin-spin", PA_TP_BTF, "contention_end", SRC, "__dcc_lockstat_spin_spin",
	  ARGS2, NULL },
};

const struct proc_probe *lockstat_probe(int i)
{
	return i >= 0 && i < (int)(sizeof(locks) / sizeof(locks[0])) ? &locks[i] : NULL;
}

static const char *const refused[] = {
	"adaptive-acquire", "adaptive-acquire-error", "adaptive-release", "spin-acquire",
	"spin-release", "rw-acquire", "rw-release", "rw-upgrade", "rw-downgrade",
};

int sema_lockstat_refused(struct sema *s, struct node *d, const char *name)
{
	for (unsigned i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (!strcmp(name, refused[i]))
			return diag_error(s->dg, d->loc, "lockstat:::%s is not supported: the kernel "
					  "has tracepoints for lock contention only; this probe "
					  "would need lock:lock_acquire and lock_release, which "
					  "exist only in kernels built with CONFIG_LOCKDEP (a "
					  "debugging option)", name);
	return 0;
}
