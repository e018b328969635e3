#pragma D option strsize=2
BEGIN { }
