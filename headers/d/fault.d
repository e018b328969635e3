/* The fault codes an ERROR clause finds in arg4 (DTrace's DTRACEFLT_*
 * values), and NULL. */
inline void *NULL = 0;

inline int DTRACEFLT_UNKNOWN = 0;
inline int DTRACEFLT_BADADDR = 1;
inline int DTRACEFLT_BADALIGN = 2;
inline int DTRACEFLT_ILLOP = 3;
inline int DTRACEFLT_DIVZERO = 4;
inline int DTRACEFLT_NOSCRATCH = 5;
inline int DTRACEFLT_KPRIV = 6;
inline int DTRACEFLT_UPRIV = 7;
inline int DTRACEFLT_TUPOFLOW = 8;
inline int DTRACEFLT_BADSTACK = 9;
inline int DTRACEFLT_BADSIZE = 10;
inline int DTRACEFLT_BADINDEX = 11;
inline int DTRACEFLT_LIBRARY = 1000;
