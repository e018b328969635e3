BEGIN { x = 'ab'; }
