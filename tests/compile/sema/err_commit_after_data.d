BEGIN { self->spec = speculation(); self->other = speculation(); }
BEGIN { commit(self->spec); trace(1); }
BEGIN { trace(2); commit(self->spec); }
BEGIN { commit(self->spec); exit(0); }
BEGIN { commit(self->spec); commit(self->other); }
BEGIN { printf("x"); discard(self->spec); exit(0); }
BEGIN { commit(self->spec); speculate(self->other); }
BEGIN { @n = count(); commit(self->spec); @m = sum(1); }
