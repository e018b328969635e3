BEGIN { x = *arg0; }
