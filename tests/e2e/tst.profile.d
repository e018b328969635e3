/* profile-N fires on every CPU; a tick ends the run after about a second. */
profile:::profile-100hz
{
	@["fired"] = count();
}

profile:::tick-1s
{
	exit(0);
}
