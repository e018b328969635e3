fbt::*:entry { }
fbt:ext4:ext4_sync_file:entry { }
fbt::dcc_no_such_function:entry { }
fbt::vfs_read:return { trace(args[0]); trace(args[1]); trace(args[2]); }
