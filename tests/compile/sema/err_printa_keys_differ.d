BEGIN { @a = count(); @b[1] = count(); printa("%@d %@d\n", @a, @b); }
