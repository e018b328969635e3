#pragma D option aggpack
BEGIN { exit(0); }
