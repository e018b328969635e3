/* one clause may commit and discard several speculations, as DTrace for Linux allows */
BEGIN { a = speculation(); b = speculation(); }
BEGIN { commit(a); commit(b); discard(a); }
