typedef struct point { int x; int y; char tag[3]; long z; unsigned flags : 4; unsigned more : 30; } point_t;
enum fruit { APPLE, PEAR = 7, PLUM };
inline int LIMIT = PLUM * 2;
translator point_t < struct task_struct *T > { x = T->pid; y = T->tgid; tag = T->comm; };
BEGIN { trace(sizeof(point_t)); trace(offsetof(point_t, z)); trace(LIMIT); trace(xlate <point_t *> (curthread)->x); trace(xlate <point_t *> (curthread)->tag); trace(curpsinfo->pr_ppid); trace(curlwpsinfo->pr_lwpid); trace(ENOENT + SIGKILL); exit(0); }
