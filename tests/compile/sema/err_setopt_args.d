/* setopt()'s option name is a constant string; its value may be computed,
 * but it is a string */
BEGIN
{
	name = "quiet";
	setopt(name, "1");
	setopt("aggsortpos", 1);
	setopt("aggsortpos", lltostr(1));
}
