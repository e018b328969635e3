#ifdef FOO
BEGIN { trace(1); }
#endif
