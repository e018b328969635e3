io:::start
{
	@bytes[args[0]->b_flags & B_READ ? "R" : "W", args[1]->dev_statname] =
	    sum(args[0]->b_bcount);
	@blk[args[1]->dev_major, args[1]->dev_minor] = max(args[0]->b_blkno);
}

io:::*
/args[2]->fi_name == "<none>" && args[0]->b_edev != 0/
{
	printf("%s %s %d\n", args[1]->dev_name, args[1]->dev_pathname, args[2]->fi_offset);
}
