#!/usr/bin/env bash
# tests/vm/run.sh: the second-kernel batch. Compiles every case of
# tests/vm/cases/ here (against this machine's BTF), boots Debian 12's 6.1
# cloud kernel ONCE under qemu (TCG) with a static dtrun, the static triggers
# and the objects, runs each case inside the guest and compares its output
# with the case's expected output. See tests/vm/README.md.
#
#   run.sh --dcc DCC --guest-bin DIR --work DIR [--cache DIR] [--cases DIR]
#          [--host] [CASE...]
#
# --host runs the same payload on this machine's kernel instead (the
# baseline: the same objects and expected outputs on both kernels).
#
# Exit status: 0 every case passed; 1 a case failed or the VM could not run;
# 77 (CTest's "skipped") only when the VM cannot run and DCC_VM_SKIP=1.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DCC=$ROOT/build/bin/dcc
GUEST_BIN=$ROOT/build/tests/vm/guest
WORK=${TMPDIR:-/tmp}/dcc-vm-work
CACHE=${DCC_VM_CACHE:-/var/cache/dcc-vm}
CASES_DIR=$HERE/cases
QEMU=${DCC_VM_QEMU:-qemu-system-x86_64}
BUSYBOX=${DCC_VM_BUSYBOX:-/bin/busybox}
BOOT_TIMEOUT=${DCC_VM_TIMEOUT:-600}
KERNEL_META=linux-image-cloud-amd64
HOST=0

usage()
{
	sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case "$1" in
	--dcc) DCC=$2; shift 2 ;;
	--guest-bin) GUEST_BIN=$2; shift 2 ;;
	--work) WORK=$2; shift 2 ;;
	--cache) CACHE=$2; shift 2 ;;
	--cases) CASES_DIR=$2; shift 2 ;;
	--host) HOST=1; shift ;;
	-h | --help) usage ;;
	--*) echo "run.sh: unknown option $1" >&2; usage ;;
	*) break ;;
	esac
done
DCC_ABS=$(realpath -m "$DCC")
WORK_ABS=$(realpath -m "$WORK")

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
T_START=$(now)

# The VM cannot run at all: say so loudly; fail unless DCC_VM_SKIP=1.
cannot_run()
{
	{
		echo
		echo "######################################################################"
		echo "## vm.second_kernel: THE SECOND-KERNEL TESTS DID NOT RUN"
		echo "## $*"
		if [ "${DCC_VM_SKIP:-0}" = 1 ]; then
			echo "## DCC_VM_SKIP=1: reported as SKIPPED (not passed)"
		else
			echo "## failing; set DCC_VM_SKIP=1 to report this as skipped instead"
		fi
		echo "######################################################################"
		echo
	} >&2
	[ "${DCC_VM_SKIP:-0}" = 1 ] && exit 77
	exit 1
}

# ---- prerequisites ---------------------------------------------------------

if [ "$HOST" = 0 ]; then
command -v "$QEMU" >/dev/null 2>&1 ||
	cannot_run "$QEMU not found (Debian package qemu-system-x86)"
[ -x "$BUSYBOX" ] || cannot_run "$BUSYBOX not found (Debian package busybox-static)"
if readelf -lW "$BUSYBOX" 2>/dev/null | grep -q 'program interpreter'; then
	cannot_run "$BUSYBOX is dynamically linked; install busybox-static"
fi
fi
[ -x "$DCC" ] || cannot_run "dcc not built: $DCC"
[ -x "$GUEST_BIN/dtrun" ] || cannot_run "static dtrun not built: $GUEST_BIN/dtrun (target dtrun_static)"
if readelf -lW "$GUEST_BIN/dtrun" | grep -q 'program interpreter'; then
	cannot_run "$GUEST_BIN/dtrun is not statically linked"
fi

# The kernel: the package linux-image-cloud-amd64 depends on, downloaded once
# and unpacked into the cache (never installed). DCC_VM_KERNEL overrides.
find_kernel()
{
	local pkg deb dir
	if [ -n "${DCC_VM_KERNEL:-}" ]; then
		[ -f "$DCC_VM_KERNEL" ] || cannot_run "DCC_VM_KERNEL=$DCC_VM_KERNEL does not exist"
		KERNEL=$DCC_VM_KERNEL
		return
	fi
	pkg=$(apt-cache depends "$KERNEL_META" 2>/dev/null |
		awk '$1 == "Depends:" && $2 ~ /^linux-image-/ { print $2; exit }')
	if [ -z "$pkg" ]; then
		# No apt metadata: any kernel unpacked before will do.
		KERNEL=$(ls -1 "$CACHE"/linux-image-*/boot/vmlinuz-* 2>/dev/null | sort -V | tail -n 1)
		[ -n "$KERNEL" ] ||
			cannot_run "apt-cache does not know $KERNEL_META and $CACHE has no kernel"
		return
	fi
	dir=$CACHE/$pkg
	KERNEL=$(ls -1 "$dir"/boot/vmlinuz-* 2>/dev/null | head -n 1)
	[ -n "$KERNEL" ] && return
	mkdir -p "$CACHE" || cannot_run "cannot create the kernel cache $CACHE"
	echo "run.sh: fetching $pkg into $CACHE" >&2
	if ! (cd "$CACHE" && apt-get download "$pkg") >"$CACHE/download.log" 2>&1; then
		# An older kernel unpacked before still proves the point.
		KERNEL=$(ls -1 "$CACHE"/linux-image-*/boot/vmlinuz-* 2>/dev/null | sort -V | tail -n 1)
		if [ -n "$KERNEL" ]; then
			echo "run.sh: WARNING: apt-get download $pkg failed; using the cached $KERNEL" >&2
			return
		fi
		cannot_run "apt-get download $pkg failed: $(tail -n 3 "$CACHE/download.log")"
	fi
	deb=$(ls -1 "$CACHE/${pkg}"_*.deb 2>/dev/null | head -n 1)
	[ -n "$deb" ] || cannot_run "apt-get download $pkg left no .deb in $CACHE"
	rm -rf "$dir.tmp"
	dpkg-deb -x "$deb" "$dir.tmp" || cannot_run "dpkg-deb -x $deb failed"
	# Only boot/ (vmlinuz, config, System.map) is kept: no modules are needed.
	find "$dir.tmp" -mindepth 1 -maxdepth 1 ! -name boot -exec rm -rf {} +
	mv "$dir.tmp" "$dir"
	rm -f "$deb"
	KERNEL=$(ls -1 "$dir"/boot/vmlinuz-* 2>/dev/null | head -n 1)
	[ -n "$KERNEL" ] || cannot_run "$deb has no boot/vmlinuz-*"
}
[ "$HOST" = 1 ] || find_kernel

# ---- the cases -------------------------------------------------------------

# directive FILE NAME: the value of "vm-NAME: value" in a case's comments.
directive()
{
	sed -n "s/^.*vm-$2:[[:space:]]*//p" "$1" | sed 's/[[:space:]]*\*\/[[:space:]]*$//; s/[[:space:]]*$//' |
		head -n 1
}

rm -rf "$WORK"
mkdir -p "$WORK/root/bin" "$WORK/root/t" "$WORK/root/c" "$WORK/root/dev" "$WORK/got" ||
	cannot_run "cannot create $WORK"

if [ $# -gt 0 ]; then
	CASES=("$@")
else
	CASES=()
	for d in "$CASES_DIR"/*.d; do
		[ -e "$d" ] || continue
		CASES+=("$(basename "$d" .d)")
	done
fi
[ ${#CASES[@]} -gt 0 ] || { echo "run.sh: no cases in $CASES_DIR" >&2; exit 1; }

declare -A RESULT WHY STATUS
PAYLOAD=$WORK/root/payload.sh
# The guest's paths are /t (binaries), /c (objects), /w (per-case work); on
# the host the same tree lives under $WORK/root.
P=
[ "$HOST" = 1 ] && P=$WORK/root
{
	echo '# generated by tests/vm/run.sh: one block per case'
	echo "export PATH=$P/t:/bin:/sbin:/usr/bin:/usr/sbin"
} >"$PAYLOAD"

shq() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }

T_COMPILE=$(now)
RUN_CASES=()
for c in "${CASES[@]}"; do
	d=$CASES_DIR/$c.d
	if ! [[ "$c" =~ ^[A-Za-z0-9_.-]+$ ]] || [ ! -f "$d" ]; then
		RESULT[$c]=FAIL WHY[$c]="no case file $d"
		continue
	fi
	if [ ! -f "$CASES_DIR/$c.out" ]; then
		RESULT[$c]=FAIL WHY[$c]="no expected output $CASES_DIR/$c.out"
		continue
	fi
	# "vm-host: skip": the case needs what this machine's kernel refuses
	# (fentry, kprobes), so the host baseline leaves it out
	if [ "$HOST" = 1 ] && [ "$(directive "$d" host)" = skip ]; then
		RESULT[$c]=SKIP WHY[$c]="guest only (vm-host: skip)"
		continue
	fi
	# compiled from the cases' folder, so that a clause's name in a fault
	# message ("NAME.d:12:1") is the same wherever the tree is
	if ! (cd "$CASES_DIR" && "$DCC_ABS" "$c.d" -o "$WORK_ABS/root/c/$c.bpf.o") \
		>"$WORK/got/$c.compile" 2>&1; then
		RESULT[$c]=FAIL WHY[$c]="dcc failed: $(head -n 3 "$WORK/got/$c.compile")"
		continue
	fi
	cmd=$(directive "$d" cmd)
	args=$(directive "$d" args)
	tmo=$(directive "$d" timeout)
	STATUS[$c]=$(directive "$d" status)
	: "${STATUS[$c]:=0}" "${args:=-q}" "${tmo:=120}"
	cmd=${cmd//@REPORT@/$P/w/$c/report}
	{
		echo
		echo "mkdir -p $P/w/$c && cd $P/w/$c"
		if [ -n "$cmd" ]; then
			echo "timeout $tmo dtrun $args -c $(shq "$cmd") $P/c/$c.bpf.o >out 2>&1"
		else
			echo "timeout $tmo dtrun $args $P/c/$c.bpf.o >out 2>&1"
		fi
		echo 'rc=$?'
		echo "echo '@@@DCCVM begin $c'"
		echo 'base64 out'
		echo "echo '@@@DCCVM report $c'"
		echo '[ -f report ] && base64 report'
		echo "echo \"@@@DCCVM end $c rc=\$rc\""
	} >>"$PAYLOAD"
	RUN_CASES+=("$c")
done
{
	echo
	if [ "$HOST" = 0 ]; then
		echo "echo '@@@DCCVM dmesg'"
		echo 'dmesg | base64'
	fi
	echo 'echo "@@@DCCVM uname $(uname -r)"'
	echo 'echo "@@@DCCVM uptime $(cut -d" " -f1 /proc/uptime)"'
} >>"$PAYLOAD"
T_COMPILED=$(now)

# ---- the initramfs ---------------------------------------------------------

cp "$BUSYBOX" "$WORK/root/bin/busybox"
cp "$HERE/init" "$WORK/root/init"
chmod 755 "$WORK/root/init"
for f in "$GUEST_BIN"/*; do
	[ -f "$f" ] && [ -x "$f" ] && cp "$f" "$WORK/root/t/"
done
if [ "$HOST" = 0 ]; then
	# The kernel opens /dev/console before /init runs; /init mounts devtmpfs too.
	mknod -m 600 "$WORK/root/dev/console" c 5 1 2>/dev/null || true
	(cd "$WORK/root" && find . | "$BUSYBOX" cpio -o -H newc -R 0:0 2>/dev/null | gzip -1) \
		>"$WORK/initramfs.cpio.gz" || cannot_run "building the initramfs failed"
fi

# ---- one boot --------------------------------------------------------------

CONSOLE=$WORK/console.log
T_BOOT=$(now)
if [ "$HOST" = 1 ]; then
	echo "run.sh: running ${#RUN_CASES[@]} case(s) on this machine's kernel" >&2
	{
		echo '@@@DCCVM payload-start'
		sh "$PAYLOAD"
		echo "@@@DCCVM payload-exit rc=$?"
	} </dev/null >"$CONSOLE" 2>"$WORK/qemu.err"
	QEMU_RC=$?
else
	echo "run.sh: booting $(basename "$KERNEL") under qemu (TCG) with ${#RUN_CASES[@]} case(s)" >&2
	timeout "$BOOT_TIMEOUT" "$QEMU" -accel tcg,thread=multi -cpu max -smp 1 -m 1024 \
		-kernel "$KERNEL" -initrd "$WORK/initramfs.cpio.gz" \
		-append 'console=ttyS0 panic=-1 oops=panic quiet loglevel=1 mitigations=off' \
		-display none -serial stdio -monitor none -nodefaults -no-reboot \
		</dev/null >"$CONSOLE" 2>"$WORK/qemu.err"
	QEMU_RC=$?
fi
T_OFF=$(now)
tr -d '\r' <"$CONSOLE" >"$CONSOLE.txt"

if ! grep -q '^@@@DCCVM payload-exit' "$CONSOLE.txt"; then
	tail -n 40 "$CONSOLE.txt" >&2
	cat "$WORK/qemu.err" >&2
	if [ "$QEMU_RC" = 124 ]; then
		cannot_run "the guest did not power off within ${BOOT_TIMEOUT}s (console: $CONSOLE)"
	fi
	cannot_run "qemu exited with status $QEMU_RC before the payload finished (console: $CONSOLE)"
fi

# Split the console into got/CASE.{out,report,rc}, guest dmesg, uname, uptime.
awk -v dir="$WORK/got" '
	/^@@@DCCVM begin / { file = dir "/" $3 ".out.b64"; printf "" > file; next }
	/^@@@DCCVM report / { file = dir "/" $3 ".report.b64"; printf "" > file; next }
	/^@@@DCCVM end / { sub(/^rc=/, "", $4); print $4 > (dir "/" $3 ".rc"); file = ""; next }
	/^@@@DCCVM dmesg/ { file = dir "/dmesg.b64"; printf "" > file; next }
	/^@@@DCCVM / { file = ""; print $3 > (dir "/" $2); next }
	file != "" { print >> file }
' "$CONSOLE.txt"
for f in "$WORK"/got/*.b64; do
	[ -e "$f" ] || continue
	base64 -d "$f" >"${f%.b64}" 2>"${f%.b64}.b64err" || echo "(corrupt base64)" >>"${f%.b64}.b64err"
done
[ -f "$WORK/got/dmesg" ] && cp "$WORK/got/dmesg" "$WORK/guest-dmesg.txt"

# ---- compare ---------------------------------------------------------------

# expand EXPECTED REPORT: EXPECTED with each @key@ replaced by the value of
# key=value in the trigger's REPORT (a value runs to the next " key=").
expand()
{
	awk -v report="$2" '
		BEGIN {
			while ((getline line < report) > 0) {
				n = split(line, w, " ")
				key = ""
				for (i = 1; i <= n; i++) {
					if (match(w[i], /^[a-z_]+=/)) {
						key = substr(w[i], 1, RLENGTH - 1)
						val[key] = substr(w[i], RLENGTH + 1)
					} else if (key != "") {
						val[key] = val[key] " " w[i]
					}
				}
			}
		}
		{
			out = ""
			s = $0
			while (match(s, /@[a-z_]+@/)) {
				k = substr(s, RSTART + 1, RLENGTH - 2)
				if (!(k in val)) {
					print "run.sh: no value for @" k "@ in the trigger report" > "/dev/stderr"
					bad = 1
					out = out substr(s, 1, RSTART + RLENGTH - 1)
				} else {
					out = out substr(s, 1, RSTART - 1) val[k]
				}
				s = substr(s, RSTART + RLENGTH)
			}
			printf "%s%s\n", out, s
		}
		END { exit bad }
	' "$1"
}

for c in "${RUN_CASES[@]}"; do
	got=$WORK/got/$c
	if [ ! -f "$got.rc" ]; then
		RESULT[$c]=FAIL WHY[$c]="no result from the guest"
		continue
	fi
	if [ -s "$got.out.b64err" ]; then
		RESULT[$c]=FAIL WHY[$c]="console output garbled: $(cat "$got.out.b64err")"
		continue
	fi
	[ -f "$got.report" ] || : >"$got.report"
	# Expected files end with a newline; awk re-adds it to every line.
	if ! expand "$CASES_DIR/$c.out" "$got.report" >"$got.expected" 2>"$got.experr"; then
		RESULT[$c]=FAIL WHY[$c]="$(cat "$got.experr")"
		continue
	fi
	rc=$(cat "$got.rc")
	if ! cmp -s "$got.expected" "$got.out"; then
		RESULT[$c]=FAIL
		WHY[$c]="output differs (rc=$rc):
$(diff -u --label expected --label guest "$got.expected" "$got.out" | head -n 30)"
	elif [ "$rc" != "${STATUS[$c]}" ]; then
		RESULT[$c]=FAIL WHY[$c]="exit status $rc, expected ${STATUS[$c]}"
	else
		RESULT[$c]=PASS
	fi
done

# ---- report ----------------------------------------------------------------

T_END=$(now)
pass=0 fail=0 skip=0
NAME=vm.second_kernel WHERE=guest RUNTIME=boot-to-poweroff
[ "$HOST" = 1 ] && NAME=vm.host_baseline WHERE=host RUNTIME="payload run"
echo "$NAME: kernel $(cat "$WORK/got/uname" 2>/dev/null || echo '?') ($WHERE), objects compiled against $(uname -r) BTF"
for c in "${CASES[@]}"; do
	r=${RESULT[$c]:-FAIL}
	printf '  %-4s %s\n' "$r" "$c"
	if [ "$r" = PASS ]; then
		pass=$((pass + 1))
	elif [ "$r" = SKIP ]; then
		skip=$((skip + 1))
		printf '%s\n' "${WHY[$c]}" | sed 's/^/         /'
	else
		fail=$((fail + 1))
		printf '%s\n' "${WHY[$c]:-unknown}" | sed 's/^/         /'
	fi
done
echo "$NAME: $pass passed, $fail failed, $skip skipped of ${#CASES[@]}"
echo "$NAME: times: compile $(elapsed "$T_COMPILE" "$T_COMPILED")s," \
	"$RUNTIME $(elapsed "$T_BOOT" "$T_OFF")s (uptime at the end $(cat "$WORK/got/uptime" 2>/dev/null || echo '?')s)," \
	"whole harness $(elapsed "$T_START" "$T_END")s"
echo "$NAME: console log $CONSOLE.txt, outputs in $WORK/got/"
[ "$fail" -eq 0 ]
