#!/usr/bin/env bash
# fbt wildcards in the second kernel (issue 13, "How costs grow"): the
# machine's own kernel refuses fentry, so `BEGIN { exit(0); } PATTERN {
# @ = count(); }` is compiled here and run in Debian 12's 6.1 kernel under
# qemu (TCG) through tests/vm/run.sh, one boot for every pattern, with
# `dtrun -q -v`: open+load, attach and detach as dtrun times them inside
# the guest. TCG emulates every instruction, so the times are ~10-50x the
# machine's own; the shape against the number of functions is the result.
#
# PATTERNS (space-separated) to change the list; the run holds the kernel
# lock (LOCK) for the whole boot.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
LOCK=${LOCK:-/tmp/dcc-kernel.lock}
PATTERNS=${PATTERNS:-fbt::vfs_read:entry fbt::vfs_*read*:entry fbt::security_file*:entry fbt::vfs_[r-w]*:entry fbt::vfs_*:entry fbt::vfs_*:return fbt::security_[a-p]*:entry fbt::tcp_[a-r]*:entry fbt::security_*:entry syscall:::entry}
GUEST_BIN=${GUEST_BIN:-$BUILD/tests/vm/guest}
[ -x "$GUEST_BIN/dtrun" ] || { echo "bench: no static dtrun in $GUEST_BIN (build tests/vm)" >&2; exit 1; }

mkdir -p "$WORK/cases"
i=0
declare -A PAT
for p in $PATTERNS; do
	i=$((i + 1))
	c=$(printf 'p%02d' "$i")
	PAT[$c]=$p
	{
		printf '/* vm-args: -q -v\n * vm-timeout: 900\n */\n'
		printf 'BEGIN { exit(0); }\n%s { @ = count(); }\n' "$p"
	} >"$WORK/cases/$c.d"
	: >"$WORK/cases/$c.out"
done
t0=$(now_us)
flock "$LOCK" "$ROOT/tests/vm/run.sh" --dcc "$DCC" --guest-bin "$GUEST_BIN" --work "$WORK/vm" \
	--cases "$WORK/cases" >"$WORK/run.log" 2>&1 || true
t1=$(now_us)

machine
echo "# dcc $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'), guest $(grep -m1 -o 'Linux version [^ ]*' "$WORK/vm/console.log.txt" 2>/dev/null || echo '?'), batch $(((t1 - t0) / 1000000)) s"
echo "| pattern | probes | programs | open+load ms | attach ms | attached after start ms | detach ms | closing perf events ms |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for c in $(printf '%s\n' "${!PAT[@]}" | sort); do
	f=$WORK/vm/got/$c.out
	np=$("$DTRUN" --info "$WORK/vm/root/c/$c.bpf.o" 2>/dev/null | sed -n 's/^probes: \([0-9]*\).*/\1/p' || true)
	progs=$("$DTRUN" --info "$WORK/vm/root/c/$c.bpf.o" 2>/dev/null | sed -n 's/^programs: //p' || true)
	if [ -z "$np" ]; then
		printf '| `%s` | | | does not compile: %s | | | | |\n' "${PAT[$c]}" \
			"$(grep -m1 error "$WORK/vm/got/$c.compile" 2>/dev/null | cut -c1-160)"
		continue
	fi
	if ! grep -q 'probes attached' "$f" 2>/dev/null; then
		printf '| `%s` | %s | %s | fails: %s | | | | |\n' "${PAT[$c]}" "$((np - 1))" "$((progs - 1))" \
			"$(grep -v '^libbpf\|timing' "$f" 2>/dev/null | grep -m1 . | cut -c1-160)"
		continue
	fi
	awk -v pat="${PAT[$c]}" -v np="$np" -v progs="$progs" '
		/open\+load/ { for (i = 1; i < NF; i++) { if ($i == "open+load") l = $(i + 1)
			if ($i == "attach") a = $(i + 1); if ($i == "attached") s = $(i + 1) } }
		/timing: detach/ { d = $4 }
		/timing: closing/ { c = $(NF - 1) }
		END { printf "| `%s` | %s | %s | %s | %s | %s | %s | %s |\n", pat, np - 1, progs - 1, l, a, s, d, c + 0 }' "$f"
done
echo "(probes and programs without BEGIN's)"
