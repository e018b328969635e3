#!/bin/sh
# headers/d/*.d -> a C table { "name.d", "text" } compiled into dcc.
echo "/* generated from headers/d by gen_dlib.sh */"
echo "static const struct { const char *name; const char *text; } dlib_files[] = {"
for f in "$@"; do
	printf '\t{ "%s",\n' "$(basename "$f")"
	sed 's/\\/\\\\/g; s/"/\\"/g; s/^/\t  "/; s/$/\\n"/' "$f"
	printf '\t},\n'
done
echo "};"
