BEGIN { @a = 5; }
