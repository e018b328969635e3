/* A function cannot be a thread-local or clause-local variable. */
self int per_thread(int);
this void per_clause(void);
BEGIN { exit(0); }
