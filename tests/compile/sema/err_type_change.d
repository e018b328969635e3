BEGIN { x = 1; x = "str"; }
