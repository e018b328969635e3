BEGIN { else trace(1); }
