#!/bin/sh
# tests/install/check.sh BUILD SRC: install BUILD into a temporary prefix,
# then build the embedding sample (samples/embed) against what was installed,
# as a user would: by hand with pkg-config's dcc-runtime (as C and as C++,
# -Wall -Wextra -Werror, the shared library and the static one) and as an
# external CMake project with find_package(dcc) and dcc_add_skeleton(). Each
# program traces its own getppid() calls through the kernel; the output must
# be exact. Loads BPF: run it under the kernel lock (ctest runs it serially).
set -eu
BUILD=$(cd "$1" && pwd)
SRC=$(cd "$2" && pwd)
T=$(mktemp -d /tmp/dcc-install.XXXXXX)
trap 'rm -rf "$T"' EXIT
PREFIX=$T/prefix
fails=0

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

cmake --install "$BUILD" --prefix "$PREFIX" >"$T/install.log" ||
	{ cat "$T/install.log"; echo "FAIL: cmake --install"; exit 1; }
LIBDIR=$(ls -d "$PREFIX"/lib*/pkgconfig | head -1 | xargs dirname)
for f in "$LIBDIR/libdcc-runtime.so.0" "$LIBDIR/libdcc-runtime.a" \
	"$PREFIX/include/dcc/session.h" "$PREFIX/include/dcc/runtime.h" \
	"$PREFIX/bin/dcc" "$LIBDIR/cmake/dcc/dccConfig.cmake" \
	"$PREFIX/share/man/man1/dcc.1" "$PREFIX/share/man/man1/dtrun.1"; do
	[ -e "$f" ] || fail "not installed: $f"
done
# the manual pages render, without a warning, and document every option
# --help lists
if command -v man >/dev/null 2>&1; then
	for p in dcc dtrun; do
		page=$PREFIX/share/man/man1/$p.1
		if ! MANWIDTH=80 man -l "$page" >"$T/$p.txt" 2>"$T/$p.err" ||
			[ -s "$T/$p.err" ]; then
			fail "man -l $page"
			cat "$T/$p.err"
			continue
		fi
		grep -q "^NAME" "$T/$p.txt" || fail "man $p: no NAME section"
		for o in $("$PREFIX/bin/$p" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
			grep -q -- "$o" "$T/$p.txt" || fail "man $p does not document $o"
		done
	done
	echo "ok: man pages"
else
	echo "skip: man is not installed, the manual pages were not rendered"
fi
# only prefixed, versioned symbols
bad=$(nm -D --defined-only "$LIBDIR/libdcc-runtime.so.0" |
	awk '$3 != "DCC_RUNTIME_0" && $3 !~ /^dcc_[a-z_]+@@DCC_RUNTIME_0$/' )
[ -z "$bad" ] || fail "unexpected exported symbols: $bad"
soname=$(objdump -p "$LIBDIR/libdcc-runtime.so.0" | awk '$1 == "SONAME" { print $2 }')
[ "$soname" = libdcc-runtime.so.0 ] || fail "soname is '$soname'"

# expected N: what the sample prints for N getppid() calls
expected() {
	echo "tracing getppid()"
	i=1
	while [ "$i" -le "$1" ]; do echo "getppid #$i"; i=$((i + 1)); done
	echo "done"
	echo "walk: @calls = $1"
	echo
	printf '%17d\n' "$1"
}

# run LABEL PROGRAM N
run() {
	if ! "$2" "$3" >"$T/out" 2>"$T/err"; then
		fail "$1: exit status $?"
		cat "$T/err"
		return
	fi
	expected "$3" >"$T/want"
	if ! cmp -s "$T/want" "$T/out"; then
		fail "$1: output differs"
		diff "$T/want" "$T/out" || true
	else
		echo "ok: $1"
	fi
}

# By hand with pkg-config.
export PKG_CONFIG_PATH="$LIBDIR/pkgconfig"
mkdir "$T/pc"
"$PREFIX/bin/dcc" "$SRC/samples/embed/getppid.d" -o "$T/pc/getppid.bpf.o" \
	--skel "$T/pc/getppid.skel.h" || fail "dcc --skel"
CFLAGS="-Wall -Wextra -Werror -I$T/pc $(pkg-config --cflags dcc-runtime)"
LIBS="$(pkg-config --libs dcc-runtime) -Wl,-rpath,$LIBDIR"
# shellcheck disable=SC2086 # flags are words
cc $CFLAGS -o "$T/pc/embed_c" "$SRC/samples/embed/embed.c" $LIBS || fail "cc with pkg-config"
# shellcheck disable=SC2086
c++ $CFLAGS -x c++ -o "$T/pc/embed_cxx" "$SRC/samples/embed/embed.c" $LIBS ||
	fail "c++ with pkg-config"
# shellcheck disable=SC2086
cc $CFLAGS -o "$T/pc/embed_static" "$SRC/samples/embed/embed.c" \
	$(pkg-config --static --libs dcc-runtime | sed 's/-ldcc-runtime/-l:libdcc-runtime.a/') ||
	fail "cc with pkg-config --static"
if ldd "$T/pc/embed_static" | grep -q dcc-runtime; then
	fail "the static build links libdcc-runtime.so"
fi
[ -x "$T/pc/embed_c" ] && run "pkg-config, C" "$T/pc/embed_c" 5
[ -x "$T/pc/embed_cxx" ] && run "pkg-config, C++" "$T/pc/embed_cxx" 2
[ -x "$T/pc/embed_static" ] && run "pkg-config, static" "$T/pc/embed_static" 1

# An external CMake project: find_package(dcc) and dcc_add_skeleton().
if cmake -S "$SRC/samples/embed" -B "$T/cm" -DCMAKE_PREFIX_PATH="$PREFIX" \
	-DCMAKE_C_FLAGS="-Wall -Wextra -Werror" >"$T/cm.log" 2>&1 &&
	cmake --build "$T/cm" >>"$T/cm.log" 2>&1; then
	run "CMake package" "$T/cm/embed_getppid" 3
else
	cat "$T/cm.log"
	fail "external CMake project"
fi

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "all install checks passed"
