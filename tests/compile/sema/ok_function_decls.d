/* Functions declared without extern are external functions, as in C: D
 * only declares them, whatever they return. */
void notify(int, int);
int count_of(void);
char *name_of(const char *, ...);
#pragma D attributes Stable/Stable/Common notify
BEGIN { exit(0); }
