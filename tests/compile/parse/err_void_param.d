int named(void unused);
int tail(int, void);
int head(void, char *);
int fine(void);
int ptrs(void *, void **);
