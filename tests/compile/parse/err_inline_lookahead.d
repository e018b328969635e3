/* inline parameters are told from an array declarator by looking several
 * tokens ahead; broken ones (found by fuzz_front) end in a diagnostic */
inline int bad[intint bad2[int a = 1;
