#pragma D error "this script needs dtrace 2"
BEGIN { }
