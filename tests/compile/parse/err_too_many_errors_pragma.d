/* Twenty invalid characters stop the lexer while it reads up to the pragma
 * the parser peeked: the pragma is still read, then the parse stops. */
\\\\\\\\\\\\\\\\\\\\\\\\
#pragma D option quiet
