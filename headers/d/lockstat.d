/*
 * The lockstat provider's flags and arguments (dcc/sema/sema_lockstat.c
 * maps arg0 to the lock, arg1 to the contention's nanoseconds, arg2 to
 * reader (1) or writer (0), arg3 to contention_begin's LCB_F_* flags,
 * include/trace/events/lock.h).
 */
inline int LCB_F_SPIN = 0x01;
inline int LCB_F_READ = 0x02;
inline int LCB_F_WRITE = 0x04;
inline int LCB_F_RT = 0x08;
inline int LCB_F_PERCPU = 0x10;
inline int LCB_F_MUTEX = 0x20;

inline void *__dcc_lockstat_lock = (void *)arg0;
inline uint64_t __dcc_lockstat_time = arg1;
inline int __dcc_lockstat_reader = (int)arg2;

inline int __dcc_lockstat_adaptive_spin = (arg3 & (LCB_F_MUTEX | LCB_F_SPIN)) ==
    (LCB_F_MUTEX | LCB_F_SPIN);
inline int __dcc_lockstat_adaptive_block = (arg3 & (LCB_F_MUTEX | LCB_F_SPIN)) == LCB_F_MUTEX ||
    (arg3 & LCB_F_RT) != 0;
inline int __dcc_lockstat_spin_spin = arg3 == LCB_F_SPIN;
inline int __dcc_lockstat_rw_spin = (arg3 & LCB_F_SPIN) != 0 &&
    (arg3 & (LCB_F_READ | LCB_F_WRITE)) != 0;
inline int __dcc_lockstat_rw_block = (arg3 & (LCB_F_SPIN | LCB_F_MUTEX | LCB_F_RT)) == 0 &&
    (arg3 & (LCB_F_READ | LCB_F_WRITE)) != 0;
