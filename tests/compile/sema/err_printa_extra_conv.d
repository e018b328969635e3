BEGIN { @a[1] = count(); printa("%d %d %@d\n", @a); }
