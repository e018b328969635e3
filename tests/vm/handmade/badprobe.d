/* vm.loader_handmade: a tracepoint that does not exist: dtrun says which and fails. */
/* obj: handmade_badprobe.bpf.o */
/* vm-cmd: getppid_n 3 */
/* vm-status: 1 */
