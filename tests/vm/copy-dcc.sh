#!/bin/sh
# tests/vm/copy-dcc.sh: a stand-in for dcc that run.sh calls as
# `copy-dcc.sh CASE.d -o OBJ` for the cases of tests/vm/handmade/: it
# "compiles" a case by copying the hand-made object its "obj:" comment names
# from $DCC_HANDMADE_DIR (build/tests/data, where tests/data builds them).
obj=$(sed -n 's/^.*obj: *\([^ ]*\).*$/\1/p' "$1" | head -n 1)
[ -n "$obj" ] || { echo "copy-dcc.sh: $1 names no object (obj: ...)" >&2; exit 1; }
exec cp "${DCC_HANDMADE_DIR:?the folder of the hand-made objects}/$obj" "$3"
