BEGIN { trace(mutex_owned(0)); }
BEGIN { trace(mutex_owner(curthread)); }
BEGIN { trace(rw_read_held((struct mutex *)0)); }
BEGIN { trace(mutex_type_spin()); }
BEGIN { trace("abc"["x"]); }
