#!/usr/bin/env bash
# setup.sh: install what dcc needs on Debian 12, build it, and run something.
#
#   ./setup.sh          install the packages (if any is missing) and build into build/
#   ./setup.sh demo     ... then run samples/hello.d with `build/bin/dcc run -s`
#   ./setup.sh test     ... then run the whole test suite (ctest), then build
#                       build-asan/ with ASan+UBSan and run the suite again there,
#                       then build build-fuzz/ and run each libFuzzer harness for
#                       FUZZ_SECONDS (default 60; bench/fuzz/run.sh)
#   ./setup.sh bench    ... then run the benchmarks in bench/ (next to bpftrace)
#   ./setup.sh deps     only install the packages
#
# Run it as root: the end-to-end tests and the demo load BPF programs. It is
# idempotent: packages already installed are not fetched again (so it works
# offline once they are there) and the builds are incremental.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
JOBS=$(nproc 2>/dev/null || echo 2)

PACKAGES=(
	cmake gcc g++ libc6-dev make pkg-config binutils
	llvm-19-dev clang-19 libclang-rt-19-dev
	libbpf-dev libelf-dev zlib1g-dev libzstd-dev
	bpftool linux-libc-dev
	systemtap-sdt-dev libmicrohttpd-dev prometheus
	valgrind
	libcriterion-dev
	bpftrace
	qemu-system-x86 busybox-static
)

say()
{
	if [ -t 2 ]; then
		printf '\033[1msetup.sh:\033[0m %s\n' "$*" >&2
	else
		printf 'setup.sh: %s\n' "$*" >&2
	fi
}
die() { printf 'setup.sh: error: %s\n' "$*" >&2; exit 1; }

need_root()
{
	[ "$(id -u)" -eq 0 ] || die "run me as root (BPF programs are loaded by the demo and the tests)"
}

missing_packages()
{
	local p
	for p in "${PACKAGES[@]}"; do
		if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
			echo "$p"
		fi
	done
}

deps()
{
	command -v dpkg-query >/dev/null || die "this script expects Debian 12 (dpkg and apt)"
	local missing
	missing=$(missing_packages)
	if [ -z "$missing" ]; then
		say "all packages present"
		return
	fi
	say "installing:" $missing
	export DEBIAN_FRONTEND=noninteractive
	apt-get update
	apt-get install -y --no-install-recommends "${PACKAGES[@]}"
}

# build DIR [cmake args...]: configure once, then build incrementally.
build_tree()
{
	local dir=$1
	shift
	if [ ! -f "$dir/CMakeCache.txt" ]; then
		say "configuring $dir"
		cmake -S "$ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
	fi
	say "building $dir"
	cmake --build "$dir" -j "$JOBS"
}

build()
{
	build_tree "$ROOT/build"
	[ -x "$ROOT/build/bin/dcc" ] && [ -x "$ROOT/build/bin/dtrun" ] ||
		die "build/bin/dcc or build/bin/dtrun missing after the build"
}

# run_suite DIR LABEL: ctest in DIR; returns ctest's status.
run_suite()
{
	local dir=$1 label=$2 rc=0
	say "running the test suite ($label)"
	(cd "$dir" && ctest --output-on-failure --timeout 600) || rc=$?
	if [ "$rc" -eq 0 ]; then
		say "test suite ($label): passed"
	else
		say "test suite ($label): FAILED"
	fi
	return "$rc"
}

tests()
{
	local rc_plain=0 rc_asan=0 rc_fuzz=0
	run_suite "$ROOT/build" "plain build" || rc_plain=$?

	build_tree "$ROOT/build-asan" -DDCC_SANITIZE=ON
	# halt_on_error makes any report fail the test that triggered it.
	ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:halt_on_error=1:detect_leaks=1} \
	UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
		run_suite "$ROOT/build-asan" "ASan+UBSan build" || rc_asan=$?

	say "fuzzing each harness for ${FUZZ_SECONDS:-60} s (bench/fuzz/run.sh)"
	"$ROOT/bench/fuzz/run.sh" "${FUZZ_SECONDS:-60}" || rc_fuzz=$?

	if [ "$rc_plain" -ne 0 ] || [ "$rc_asan" -ne 0 ] || [ "$rc_fuzz" -ne 0 ]; then
		die "tests failed (plain: $rc_plain, asan+ubsan: $rc_asan, fuzz: $rc_fuzz)"
	fi
	say "all tests passed in both builds, and the fuzzers found nothing"
}

cmd=${1:-build}
case "$cmd" in
deps)
	need_root
	deps
	;;
build)
	need_root
	deps
	build
	;;
demo)
	need_root
	deps
	build
	say "running: build/bin/dcc run -s samples/hello.d"
	cd "$ROOT"
	build/bin/dcc run -s samples/hello.d
	;;
test)
	need_root
	deps
	build
	tests
	;;
bench)
	need_root
	deps
	build
	"$ROOT/bench/run-all.sh"
	;;
-h | --help | help)
	sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
	;;
*)
	printf 'usage: %s [build|demo|test|bench|deps]\n' "$0" >&2
	exit 2
	;;
esac
