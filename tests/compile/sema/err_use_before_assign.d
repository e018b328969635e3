syscall::read:return /self->never/ { @ = count(); }
syscall::read:entry { self->ts = timestamp; }
