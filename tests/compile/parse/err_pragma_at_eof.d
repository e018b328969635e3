/* The last line is a pragma with no newline after it. */
BEGIN { exit(0); }
#pragma D option quiet