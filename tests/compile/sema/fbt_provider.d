fbt::vfs_read:entry { }
