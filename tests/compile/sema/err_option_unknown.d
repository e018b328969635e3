#pragma D option aggpack
#pragma D option bufszie=4m
BEGIN { exit(0); }
