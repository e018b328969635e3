#!/bin/sh
# check.sh BUILD_DIR FIRST LAST [KEEP_DIR]: the whole-compiler fuzzer over
# the programs of seeds FIRST..LAST (dgen SEED). Each program must either
# get a diagnostic from dcc (file:line:col: error: ..., status 1) or become
# an object that loads through the kernel's verifier and runs to its exit()
# with status 0 and nothing on stderr: no load failure, no fault, no crash,
# no hang. Prints one line per failing program and a summary; the failing
# programs are kept in KEEP_DIR (default: a temporary directory, printed).
# Exit status 1 if any failed.
set -u
build=$1
first=$2
last=$3
keep=${4:-$(mktemp -d /tmp/dcc-gen.XXXXXX)}
mkdir -p "$keep"
work=$(mktemp -d /tmp/dcc-gen-work.XXXXXX)
trap 'rm -rf "$work"' EXIT
trigger="$build/tests/triggers/getppid_n 5"
ok=0 diag=0 bad=0
seed=$first
while [ "$seed" -le "$last" ]; do
	p=$work/p.d
	o=$work/p.bpf.o
	"$build/bin/dgen" "$seed" >"$p"
	timeout 60 "$build/bin/dcc" "$p" -o "$o" >"$work/cout" 2>"$work/cerr"
	st=$?
	why=
	if [ $st -eq 1 ] && grep -q "^$p:[0-9]*:[0-9]*: error: " "$work/cerr" &&
		! grep -qi 'internal error\|invalid IR' "$work/cerr"; then
		diag=$((diag + 1))
	elif [ $st -ne 0 ]; then
		why="dcc exited with status $st: $(head -1 "$work/cerr")"
	else
		timeout -s KILL 60 "$build/bin/dtrun" -q -c "$trigger" "$o" \
			>"$work/rout" 2>"$work/rerr"
		st=$?
		if [ $st -ne 0 ] || [ -s "$work/rerr" ]; then
			why="dtrun exited with status $st: $(head -1 "$work/rerr")"
		else
			ok=$((ok + 1))
		fi
	fi
	if [ -n "$why" ]; then
		bad=$((bad + 1))
		cp "$p" "$keep/seed-$seed.d"
		cat "$work/cerr" "$work/rerr" >"$keep/seed-$seed.err" 2>/dev/null
		echo "FAIL seed $seed: $why"
	fi
	seed=$((seed + 1))
done
echo "gen: seeds $first..$last: $ok ran clean, $diag diagnosed, $bad failed" \
	"(kept in $keep)"
[ $bad -eq 0 ]
