/*
 * A keyed aggregation updated from a profile probe (a perf_event program,
 * NMI context on real hardware). Keyed aggregations are per-CPU hashes
 * allocated key by key (BPF_F_NO_PREALLOC), which kernels before 6.1
 * refused in tracing programs: this loads and counts on 6.1 too.
 */
#pragma D option quiet

profile:::profile-199hz
/cpu == 0 && !fired/
{
	fired = 1;
	@[probename, cpu] = count();
	exit(0);
}
