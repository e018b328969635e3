BEGIN { exit("now"); }
