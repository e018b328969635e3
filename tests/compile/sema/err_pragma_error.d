#pragma D error "not on this system"
BEGIN { }
