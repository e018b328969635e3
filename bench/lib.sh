# Shared by the bench/*.sh scripts (sourced, not run).
#
# BUILD      build tree with bin/dcc, bin/dtrun and tests/triggers (default: build/)
# RUNS       repetitions for timings (default 10); the median and the minimum are shown
# BPFTRACE   the bpftrace binary (default: found in PATH; set it empty to skip bpftrace)
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
DCC=$BUILD/bin/dcc
DTRUN=$BUILD/bin/dtrun
TRIGGERS=$BUILD/tests/triggers
RUNS=${RUNS:-10}
BPFTRACE=${BPFTRACE-$(command -v bpftrace || true)}
AOTRT=$(command -v bpftrace-aotrt || true)

[ "$(id -u)" -eq 0 ] || { echo "bench: run as root" >&2; exit 1; }
[ -x "$DCC" ] && [ -x "$DTRUN" ] || { echo "bench: build first (./setup.sh)" >&2; exit 1; }

WORK=$(mktemp -d /tmp/dcc-bench.XXXXXX)
MOUNTED_TRACEFS=
cleanup()
{
	rm -rf "$WORK"
	if [ -n "$MOUNTED_TRACEFS" ]; then
		umount /sys/kernel/tracing 2>/dev/null || true
	fi
}
trap cleanup EXIT

# bpftrace reads tracepoint formats from tracefs (dtrun mounts it itself);
# mounted for the run if missing, unmounted again at the end.
ensure_tracefs()
{
	if [ ! -e /sys/kernel/tracing/events ]; then
		mount -t tracefs nodev /sys/kernel/tracing
		MOUNTED_TRACEFS=1
	fi
}

# The progstat helper (verified_insns, run_cnt, run_time_ns per program).
progstat()
{
	if [ ! -x "$WORK/progstat" ]; then
		cc -O2 -Wall "$BENCH_DIR/progstat.c" -lbpf -o "$WORK/progstat"
	fi
	"$WORK/progstat"
}

now_us()
{
	local t=${EPOCHREALTIME/./}
	echo "$t"
}

# time_ms CMD...: wall time of one run in ms, fork to exit (output discarded;
# must succeed). CMD is a program, not a shell function.
time_ms()
{
	if [ ! -e "$WORK/spawn_ms" ]; then
		cc -O2 -Wall "$BENCH_DIR/spawn_ms.c" -o "$WORK/spawn_ms" 2>/dev/null ||
			: >"$WORK/spawn_ms"
	fi
	if [ -x "$WORK/spawn_ms" ]; then
		"$WORK/spawn_ms" "$@"
		return
	fi
	local t0 t1
	# read in place: $(now_us) is a subshell, whose fork and wait
	# (~1-2 ms each on a virtual machine) were in the timing
	t0=${EPOCHREALTIME/./}
	"$@" >/dev/null 2>&1 || { echo "bench: failed: $*" >&2; return 1; }
	t1=${EPOCHREALTIME/./}
	echo $(((t1 - t0) / 1000)).$(((t1 - t0) % 1000 / 100))
}

# stats: read numbers, print "median min".
stats()
{
	sort -n | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "- -"; exit }
		m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.1f %.1f\n", m, v[1] }'
}

# repeat_ms CMD...: RUNS timings, "median min".
repeat_ms()
{
	local i
	for ((i = 0; i < RUNS; i++)); do
		time_ms "$@"
	done | stats
}

row() { printf '%-44s %12s %12s %s\n' "$@"; }

# wait_for FILE TEXT SECONDS: until FILE contains TEXT; 1 on timeout.
wait_for()
{
	local file=$1 text=$2 end=$(($(date +%s) + $3))
	until grep -q -- "$text" "$file" 2>/dev/null; do
		[ "$(date +%s)" -lt "$end" ] || return 1
		sleep 0.01
	done
}

# stop PID: SIGINT, then wait (SIGKILL after 10 s).
stop()
{
	local pid=$1 i
	kill -INT "$pid" 2>/dev/null || true
	for ((i = 0; i < 1000; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.01
	done
	kill -KILL "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
}

# workload_scripts: issue 13's five workloads in D, D[1]..D[5]
# (workloads.sh, same_work.sh; percall/ has the hand-written C of each).
workload_scripts()
{
	D[1]='syscall:::entry { @[execname] = count(); }'
	D[2]='syscall::read:entry { self->ts = timestamp; }
syscall::read:return /self->ts/ { @ = quantize(timestamp - self->ts); self->ts = 0; }'
	D[3]='syscall::openat:entry { printf("%d %s %s\n", pid, execname, copyinstr(arg1)); }'
	D[4]='profile-997 { @[execname] = count(); }'
	D[5]='syscall:::entry /pid == 999999999/ { @ = count(); }'
}

# A 20-clause script in D (twenty.d) and in bpftrace (twenty.bt): one clause
# per syscall, each with a predicate, a count() aggregation and a printf.
gen_twenty()
{
	local calls=(read write openat close getpid lseek mmap mprotect munmap brk ioctl
		pread64 pwrite64 readv writev access pipe select sched_yield mremap)
	local c
	: >"$WORK/twenty.d"
	: >"$WORK/twenty.bt"
	for c in "${calls[@]}"; do
		printf 'syscall::%s:entry\n/pid != 0/\n{\n\t@c[execname] = count();\n\tprintf("%%d %%s\\n", pid, execname);\n}\n\n' \
			"$c" >>"$WORK/twenty.d"
		printf 'tracepoint:syscalls:sys_enter_%s\n/pid != 0/\n{\n\t@c[comm] = count();\n\tprintf("%%d %%s\\n", pid, comm);\n}\n\n' \
			"$c" >>"$WORK/twenty.bt"
	done
}

machine()
{
	echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -r), $(nproc) CPUs, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
}
