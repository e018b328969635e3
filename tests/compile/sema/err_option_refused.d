#pragma D option cpu=1
#pragma D option bufpolicy=switch
#pragma D option define=X
#pragma D option nolibs
#pragma D option aggpack
BEGIN { exit(0); }
