syscall::read:return /self->ts/ { @ = count(); self->ts = 0; }
syscall::read:entry { self->ts = timestamp; }
