BEGIN { trace($pidx); }
