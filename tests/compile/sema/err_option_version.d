/* version names a version of D that DTrace defined, or is refused */
#pragma D option version=3.0
#pragma D option version=1.six
BEGIN { exit(0); }
