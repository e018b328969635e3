/*
 * The io provider's programs load on the kernel: every bufinfo_t, devinfo_t
 * and fileinfo_t member is read, so each CO-RE relocation of io.d's
 * translators (struct request, block_device, gendisk) must resolve. The
 * guest may have no disk, so the io clauses print nothing.
 */
io:::start, io:::done
{
	this->f = args[0]->b_flags + args[0]->b_bcount + args[0]->b_lblkno + args[0]->b_blkno +
	    args[0]->b_resid + args[0]->b_bufsize + args[0]->b_error + args[0]->b_edev +
	    (uint64_t)args[0]->b_addr + (uint64_t)args[0]->b_iodone;
	this->d = args[1]->dev_major + args[1]->dev_minor + args[1]->dev_instance;
	this->s = strjoin(args[1]->dev_name, strjoin(args[1]->dev_statname,
	    args[1]->dev_pathname));
	this->i = strjoin(args[2]->fi_name, args[2]->fi_pathname);
	this->o = args[2]->fi_offset + args[2]->fi_oflags;
}

BEGIN
{
	printf("io loaded\n");
	exit(0);
}
