BEGIN { switch (x) { case 1: break; default: trace(1); } }
