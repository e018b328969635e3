BEGIN { trace(1); }
/* a comment /* with a nested opener
END { trace(2); }
