BEGIN { self->spec = speculation(); }
BEGIN { commit(self->spec); trace(1); }
BEGIN { trace(2); commit(self->spec); }
BEGIN { printf("x"); discard(self->spec); exit(0); }
