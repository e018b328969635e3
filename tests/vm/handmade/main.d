/* vm.loader_handmade: handmade.bpf.c as is: BEGIN, a counted getppid tracepoint, END. */
/* obj: handmade.bpf.o */
/* vm-cmd: getppid_n 3 */
