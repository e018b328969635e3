/* vm.loader_handmade: the fbt fixture with its probes required rather than optional. */
/* obj: handmade_fentry_req.bpf.o */
/* vm-cmd: getppid_n 2 1 */
