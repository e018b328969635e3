/* vm.loader_handmade: the fbt fixture (fentry and kretprobe) fires twice for a target
 * that sleeps once. */
/* obj: handmade_fentry.bpf.o */
/* vm-cmd: getppid_n 2 1 */
