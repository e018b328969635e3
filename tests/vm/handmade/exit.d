/* vm.loader_handmade: exit(3) from BEGIN: dtrun's status is the script's. */
/* obj: handmade_exit.bpf.o */
/* vm-status: 3 */
