/* the versions of D DTrace defined are accepted, long or short */
#pragma D option version=1.6.3
#pragma D option version=2.0
#pragma D option version=1
BEGIN { exit(0); }
