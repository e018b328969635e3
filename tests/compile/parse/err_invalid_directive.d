#foo bar
BEGIN { }
