#!/usr/bin/env bash
# Compile time per stage (`dcc -v`) for samples/hello.d, the five workloads
# of issue 13 and the 20-clause script of compile_time.sh: the median over
# RUNS runs of each stage, the in-process total, and the whole command's
# wall time (start-up included: the dynamic loader, LLVM's constructors).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
gen_twenty
cp "$ROOT/samples/hello.d" "$WORK/hello.d"
echo 'syscall:::entry { @[execname] = count(); }' >"$WORK/w1.d"
printf '%s\n' 'syscall::read:entry { self->ts = timestamp; }' \
	'syscall::read:return /self->ts/ { @ = quantize(timestamp - self->ts); self->ts = 0; }' \
	>"$WORK/w2.d"
echo 'syscall::openat:entry { printf("%s %s\n", execname, copyinstr(arg1)); }' >"$WORK/w3.d"
echo 'profile-997 { @[execname] = count(); }' >"$WORK/w4.d"
echo 'syscall::getppid:entry /pid == -1/ { @ = count(); }' >"$WORK/w5.d"

# med: the median of the numbers read, two decimals ("-" for none)
med()
{
	sort -n | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "-"; exit }
		printf "%.2f\n", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

machine
echo "# compile time per stage, median ms over $RUNS runs (dcc -v; wall = the whole command)"
stages="D library|parse|BTF|sema|LLVM target|IR|LLVM passes|emission|teardown|total"
printf '%-10s' "script"
IFS='|' read -ra names <<<"$stages"
for s in "${names[@]}"; do printf ' %8.8s' "$s"; done
printf ' %8s\n' "wall"
for w in hello w1 w2 w3 w4 w5 twenty; do
	: >"$WORK/v.txt"
	: >"$WORK/wall.txt"
	for ((i = 0; i < RUNS; i++)); do
		t0=$(now_us)
		"$DCC" -v "$WORK/$w.d" -o "$WORK/$w.bpf.o" 2>>"$WORK/v.txt"
		t1=$(now_us)
		echo "$(((t1 - t0) / 1000)).$(((t1 - t0) % 1000 / 100))" >>"$WORK/wall.txt"
	done
	printf '%-10s' "$w"
	for s in "${names[@]}"; do
		m=$({ grep "^dcc: time: $s  " "$WORK/v.txt" || true; } | awk '{ print $(NF - 1) }' | med)
		printf ' %8s' "$m"
	done
	printf ' %8s\n' "$(med <"$WORK/wall.txt")"
done
