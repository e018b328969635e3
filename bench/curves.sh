#!/usr/bin/env bash
# How costs grow (issue 13): each cost from 1 to the largest size that still
# compiles or loads, one table per curve.
#
# 1. clauses: compile time (wall, and dcc -v's LLVM passes + emission) and
#    object size against the number of clauses (CLAUSES, "1 10 100 1000"),
#    then loading it: dtrun -v's open+load and attach, or why it failed;
# 2. probes: start to probes attached against the number of probes, for the
#    syscall provider (one program on raw_syscalls whatever the pattern
#    matches) and the sdt/rawtp providers (one program and one link a probe);
# 3. aggregation keys: `@[timestamp] = count()` over KEYS distinct keys
#    ("1000 10000 100000 1000000"; aggsize 128 bytes a key): dtrun's RSS
#    before printing and at its peak, the maps' memlock, the time from the
#    trigger's end to dtrun's exit (printing the keys);
# 4. bufsize: printf on each of BUF_LOAD (500,000) getppid() calls with
#    bufsize BUFSIZES ("64k 256k 1m 4m 16m 64m"): peak RSS, memlock, drops.
#
# Every dtrun run holds the kernel lock (LOCK, /tmp/dcc-kernel.lock) for
# itself only. RUNS (default 5) repetitions for the timings of 1 and 2
# (fewer for the largest sizes), medians shown.
RUNS=${RUNS:-5}	# before lib.sh, whose default is 10
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
LOCK=${LOCK:-/tmp/dcc-kernel.lock}
CLAUSES=${CLAUSES:-1 10 100 1000}
KEYS=${KEYS:-1000 10000 100000 1000000}
BUFSIZES=${BUFSIZES:-64k 256k 1m 4m 16m 64m}
BUF_LOAD=${BUF_LOAD:-500000}
ONLY=${ONLY:-clauses probes keys bufsize}
PROBE_PATTERNS=${PROBE_PATTERNS:-syscall::getppid:entry syscall::*read*:entry syscall::*_*:entry syscall:::entry sdt:nmi:: sdt:xdp:: sdt:sched:: sdt:btrfs:: sdt:xfs:: sdt::: rawtp:nmi:: rawtp:xdp:: rawtp:sched:: rawtp:btrfs:: rawtp:xfs:: rawtp:::}

locked() { flock "$LOCK" "$@"; }
med() { stats | cut -d' ' -f1; }

# dtrun_v OBJ: one `dtrun -v` run (BEGIN exits at once); prints
# "open+load attach attached_after_start wall" in ms, or "fail: why"
dtrun_v()
{
	# timed inside the lock: waiting for others' runs is not dtrun's time
	if ! locked bash -c 't0=${EPOCHREALTIME/./}; "$@" || exit; t1=${EPOCHREALTIME/./}
		echo $((t1 - t0)) >"$0"' "$WORK/v.us" "$DTRUN" -q -v "$1" >/dev/null 2>"$WORK/v.err"; then
		echo "fail: $(grep -v '^libbpf\|timing' "$WORK/v.err" | grep -m1 . | cut -c1-160)"
		return
	fi
	sed -n 's/.*open+load \([0-9.]*\) ms.*attach \([0-9.]*\) ms, probes attached \([0-9.]*\) ms.*/\1 \2 \3/p' \
		"$WORK/v.err" | tr '\n' ' '
	awk '/timing: detach/ { d = $4 } /timing: closing/ { c = $(NF - 1) }
		END { printf "%s %s ", d + 0, c + 0 }' "$WORK/v.err"
	awk '{ printf "%.1f\n", $1 / 1000 }' "$WORK/v.us"
}

# load_row LABEL OBJ N: N runs of dtrun_v, medians of each column
load_cells()
{
	local obj=$1 n=$2 i
	: >"$WORK/lr"
	for ((i = 0; i < n; i++)); do
		dtrun_v "$obj" >>"$WORK/lr"
	done
	if grep -q '^fail' "$WORK/lr"; then
		grep -m1 '^fail' "$WORK/lr"
		return
	fi
	local c out=
	for c in 1 2 3 4 5 6; do
		out="$out $(cut -d' ' -f$c "$WORK/lr" | med)"
	done
	echo "$out"
}

clauses()
{
	local calls=(read write openat close getpid lseek mmap mprotect munmap brk ioctl
		pread64 pwrite64 readv writev access pipe select sched_yield mremap)
	local n i runs
	echo "## 1. clauses: compile and load (each clause: predicate, count(), printf)"
	printf '| clauses | compile wall ms | LLVM passes + emission ms | object bytes | programs | open+load ms | attach ms | attached after start ms | whole dtrun run ms |\n'
	printf '| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n'
	for n in $CLAUSES; do
		{
			echo 'BEGIN { exit(0); }'
			for ((i = 0; i < n; i++)); do
				printf 'syscall::%s:entry\n/pid != %d/\n{\n\t@c[execname] = count();\n\tprintf("%%d %%s\\n", pid, execname);\n}\n' \
					"${calls[i % ${#calls[@]}]}" "$i"
			done
		} >"$WORK/c$n.d"
		runs=$RUNS
		[ "$n" -lt 1000 ] || runs=$(( RUNS < 3 ? RUNS : 3 ))
		local wall
		wall=$(for ((i = 0; i < runs; i++)); do time_ms "$DCC" "$WORK/c$n.d" -o "$WORK/c$n.o"; done | med)
		local stages
		stages=$("$DCC" -v "$WORK/c$n.d" -o "$WORK/c$n.o" 2>&1 |
			awk '/time: LLVM passes|time: emission/ { s += $(NF - 1) } END { printf "%.1f", s }')
		local progs
		progs=$("$DTRUN" --info "$WORK/c$n.o" | sed -n 's/^programs: //p')
		set -- $(load_cells "$WORK/c$n.o" "$runs")
		if [ "$1" = fail: ]; then
			shift
			printf '| %s | %s | %s | %s | %s | fails: %s | | | |\n' "$n" "$wall" "$stages" \
				"$(stat -c %s "$WORK/c$n.o")" "$progs" "$*"
		else
			printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$n" "$wall" "$stages" \
				"$(stat -c %s "$WORK/c$n.o")" "$progs" "$1" "$2" "$3" "$6"
		fi
	done
}

probes()
{
	local pat runs
	echo "## 2. probes: start to attached (BEGIN { exit(0); } + PATTERN { @ = count(); })"
	printf '| pattern | probes | programs | open+load ms | attach ms | attached after start ms | detach ms | closing perf events ms | whole dtrun run ms |\n'
	printf '| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n'
	local -
	set -f # the patterns are not file names
	for pat in $PROBE_PATTERNS; do
		printf 'BEGIN { exit(0); }\n%s\n{ @ = count(); }\n' "$pat" >"$WORK/p.d"
		if ! "$DCC" "$WORK/p.d" -o "$WORK/p.o" 2>"$WORK/p.err"; then
			printf '| `%s` | does not compile: %s | | | | | | | |\n' "$pat" "$(head -1 "$WORK/p.err")"
			continue
		fi
		local np progs
		np=$("$DTRUN" --info "$WORK/p.o" | sed -n 's/^probes: \([0-9]*\).*/\1/p')
		progs=$("$DTRUN" --info "$WORK/p.o" | sed -n 's/^programs: //p')
		runs=$RUNS
		[ "$np" -lt 500 ] || runs=$(( RUNS < 3 ? RUNS : 3 ))
		[ "$np" -lt 1000 ] || runs=1
		set -- $(load_cells "$WORK/p.o" "$runs")
		if [ "$1" = fail: ]; then
			shift
			printf '| `%s` | %s | %s | fails: %s | | | | | |\n' "$pat" "$np" "$((progs - 1))" "$*"
		else
			printf '| `%s` | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$pat" "$np" "$((progs - 1))" \
				"$1" "$2" "$3" "$4" "$5" "$6"
		fi
	done
	echo "(programs: without BEGIN's)"
}

keys()
{
	local n
	echo "## 3. aggregation keys: @[timestamp] = count() over N keys, printed at exit"
	printf '| keys | aggsize | rows printed | RSS before printing KiB | peak RSS KiB | maps memlock KiB | trigger end to exit ms (printing) |\n'
	printf '| --- | --- | --- | --- | --- | --- | --- |\n'
	printf 'syscall::getppid:entry\n/execname == "getppid_n"/\n{\n\t@[timestamp] = count();\n}\n' >"$WORK/k.d"
	for n in $KEYS; do
		# aggsize is fixed when the script is compiled
		"$DCC" -x aggsize=$((n * 128)) "$WORK/k.d" -o "$WORK/k.o"
		# the traced command: the trigger, then its end time and dtrun's
		# (its parent's) RSS and memlock before dtrun prints
		cat >"$WORK/k.sh" <<EOF
#!/bin/sh
"$TRIGGERS/getppid_n" $n >/dev/null
awk '/^VmRSS/ { print \$2 }' /proc/\$PPID/status >"$WORK/k.rss"
cat /proc/\$PPID/fdinfo/* 2>/dev/null | awk '/^memlock:/ { s += \$2 } END { printf "%.0f\n", s / 1024 }' >"$WORK/k.mem"
date +%s%N >"$WORK/k.end"
EOF
		chmod +x "$WORK/k.sh"
		locked /usr/bin/time -f %M -o "$WORK/k.hwm" "$DTRUN" -q -c "$WORK/k.sh" "$WORK/k.o" >"$WORK/k.out" 2>"$WORK/k.err" || true
		local t1 t0
		t1=$(date +%s%N)
		t0=$(cat "$WORK/k.end" 2>/dev/null || echo "$t1")
		printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$n" "$((n * 128))" \
			"$(grep -c '^ *[0-9]' "$WORK/k.out" || true)" "$(cat "$WORK/k.rss" 2>/dev/null)" \
			"$(tail -1 "$WORK/k.hwm")" "$(cat "$WORK/k.mem" 2>/dev/null)" \
			"$(( (t1 - t0) / 1000000 ))"
		grep -v '^$' "$WORK/k.err" | head -3 | sed 's/^/  stderr: /' || true
	done
	echo "(the end-to-exit time includes the command's own exit, END and detaching: ~10 ms)"
}

bufsize()
{
	local b
	echo "## 4. bufsize: printf(\"%d %d\\n\", pid, timestamp) on each of $BUF_LOAD getppid() calls, output to /dev/null"
	printf '| bufsize | peak RSS KiB | maps memlock KiB | records printed | drops reported |\n'
	printf '| --- | --- | --- | --- | --- |\n'
	printf 'syscall::getppid:entry\n/pid == $target/\n{\n\tprintf("%%d %%d\\n", pid, timestamp);\n}\n' >"$WORK/b.d"
	"$DCC" "$WORK/b.d" -o "$WORK/b.o"
	cat >"$WORK/b.sh" <<EOF
#!/bin/sh
cat /proc/\$PPID/fdinfo/* 2>/dev/null | awk '/^memlock:/ { s += \$2 } END { printf "%.0f\n", s / 1024 }' >"$WORK/b.mem"
exec "$TRIGGERS/getppid_n" $BUF_LOAD >/dev/null
EOF
	chmod +x "$WORK/b.sh"
	for b in $BUFSIZES; do
		locked /usr/bin/time -f %M -o "$WORK/b.hwm" "$DTRUN" -q -x bufsize=$b -c "$WORK/b.sh" \
			"$WORK/b.o" 2>"$WORK/b.err" | grep -c . >"$WORK/b.n" || true
		printf '| %s | %s | %s | %s | %s |\n' "$b" "$(tail -1 "$WORK/b.hwm")" \
			"$(cat "$WORK/b.mem" 2>/dev/null)" "$(cat "$WORK/b.n")" \
			"$(awk '/drops? on CPU/ { s += $2 } END { print s + 0 }' "$WORK/b.err")"
	done
}

machine
echo "# dcc $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'), RUNS=$RUNS"
for part in $ONLY; do
	"$part"
	echo
done
