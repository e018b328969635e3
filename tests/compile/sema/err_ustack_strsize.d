BEGIN { ustack(2, "big"); ustack(2, -1); ustack(2, 0); ustack(2, 64); exit(0); }
