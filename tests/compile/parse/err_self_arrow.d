BEGIN { self.x = 1; this = 2; }
