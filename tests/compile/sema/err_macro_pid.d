BEGIN { trace($pid); }
