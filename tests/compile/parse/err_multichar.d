BEGIN { x = 'ab\tcdefgh'; y = 'ab\tcdefg'; }
