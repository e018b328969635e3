/* every action, recording or not, has no value; panic() is refused as a statement is */
BEGIN { @a = count(); x = clear(@a); }
BEGIN { y = commit(1); }
BEGIN { z = panic(); }
