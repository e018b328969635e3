syscall::read:return /self->ts/ { @ = count(); }
syscall::read:entry { self->ts = timestamp; }
