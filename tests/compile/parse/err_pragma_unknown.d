#pragma D foo bar
BEGIN { }
