/* a clause's predicate may read what its own body assigns (the body is
 * compiled first), and any later clause may read it; declarations count
 * from where they stand */
int declared;
BEGIN /n == 0/ { n++; declared = n; }
BEGIN /n == 1/ { trace(declared + n); }
