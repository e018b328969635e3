/* Attributes are accepted in any case and have no effect; a line without a name,
 * a name that is no identifier, or a word that is no stability or class is refused. */
inline int limit = 4;
#pragma D attributes evolving/Evolving/ISA limit
#pragma D attributes Stable/Stable/Common
#pragma D attributes Stable/Sturdy/Common limit
#pragma D attributes Stable/Stable/Common/Extra limit
#pragma D attributes Stable/Stable/Common limit;
BEGIN { exit(0); }
