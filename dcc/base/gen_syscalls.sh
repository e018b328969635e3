#!/bin/sh
# unistd_64.h -> a C table { nr, "name" } sorted by number.
echo "/* generated from $1 by gen_syscalls.sh */"
echo "static const struct { int nr; const char *name; } syscall_table[] = {"
sed -n 's/^#define __NR_\([a-z0-9_]*\)[ \t]\{1,\}\([0-9]\{1,\}\).*/\2 \1/p' "$1" |
	sort -n | awk '{ printf "\t{ %s, \"%s\" },\n", $1, $2 }'
echo "};"
