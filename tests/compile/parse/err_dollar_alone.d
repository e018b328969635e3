BEGIN { x = $ + 1; }
