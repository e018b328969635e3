/* an sdt or fbt probe's id depends on the script: only fixed ids name probes */
10001 { exit(0); }
