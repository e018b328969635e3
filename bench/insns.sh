#!/usr/bin/env bash
# BPF code for `syscall:::entry { @[execname] = count(); }`: per program the
# translated and JITed size, instructions, instructions the verifier walked
# (verified_insns), and, with kernel.bpf_stats_enabled, runs and ns per run
# while a trigger makes LOAD getppid() calls (plus whatever else the machine
# does). Next to bpftrace's raw_syscalls and per-syscall versions.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_tracefs
LOAD=${LOAD:-1000000}

printf 'syscall:::entry { @[execname] = count(); }\n' >"$WORK/sys.d"
"$DCC" "$WORK/sys.d" -o "$WORK/sys.bpf.o"
B_RAW='tracepoint:raw_syscalls:sys_enter { @[comm] = count(); }'
B_ALL='tracepoint:syscalls:sys_enter_* { @[comm] = count(); }'

old_stats=$(sysctl -n kernel.bpf_stats_enabled)
trap 'sysctl -qw kernel.bpf_stats_enabled="$old_stats"; cleanup' EXIT

# report LABEL READY CMD...: run CMD, wait for READY in its output, take the
# programs it holds descriptors of, run the load.
report()
{
	local label=$1 ready=$2 pid
	shift 2
	"$@" >"$WORK/err" 2>&1 &
	pid=$!
	if ! wait_for "$WORK/err" "$ready" 60; then
		echo "bench: $label never got ready: $(head -c 300 "$WORK/err")" >&2
		stop "$pid"
		return
	fi
	sleep 1
	sysctl -qw kernel.bpf_stats_enabled=1
	{ echo 0; sed -n 's/^prog_id:[ \t]*//p' /proc/"$pid"/fdinfo/* 2>/dev/null; } >"$WORK/mine"
	progstat | awk -F'\t' 'NR == FNR { mine[$1] = 1; next } $1 in mine' "$WORK/mine" - >"$WORK/p0"
	"$TRIGGERS/getppid_n" "$LOAD"
	progstat >"$WORK/all1"
	sysctl -qw kernel.bpf_stats_enabled="$old_stats"
	stop "$pid"
	# join p0 (before load) with all1 (after) on id: runs and ns per run
	awk -F'\t' -v label="$label" '
		NR == FNR { now_cnt[$1] = $8; now_ns[$1] = $9; next }
		{
			n++; xl += $4; ji += $5; ins += $6; ver += $7
			dc = now_cnt[$1] - $8; dn = now_ns[$1] - $9
			cnt += dc; ns += dn
			rows[n] = sprintf("%-34s %-16s %8d %8d %7d %9d %10d %8s", label, $2, $4, $5, $6, $7, dc,
				dc ? sprintf("%.0f", dn / dc) : "-")
		}
		END {
			if (n <= 6) { for (i = 1; i <= n; i++) print rows[i] }
			else printf "%-34s %-16s %8d %8d %7d %9d %10d %8s\n", label, n " progs, sum",
				xl, ji, ins, ver, cnt, cnt ? sprintf("%.0f", ns / cnt) : "-"
		}' "$WORK/all1" "$WORK/p0"
}

machine
echo "# syscall:::entry { @[execname] = count(); } -- load: getppid_n $LOAD"
printf '%-34s %-16s %8s %8s %7s %9s %10s %8s\n' "tool" "program" "xlated" "jited" "insns" \
	"verified" "runs" "ns/run"
report "dtrun" "matched" "$DTRUN" "$WORK/sys.bpf.o"
if [ -n "$BPFTRACE" ]; then
	report "bpftrace raw_syscalls:sys_enter" "Attaching" "$BPFTRACE" -e "$B_RAW"
	report "bpftrace syscalls:sys_enter_*" "Attaching" "$BPFTRACE" -e "$B_ALL"
fi
echo "# xlated/jited in bytes; insns = xlated/8; ns/run from kernel.bpf_stats_enabled"
