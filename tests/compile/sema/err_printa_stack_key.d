BEGIN { @s[stack()] = count(); printa("%p %@d\n", @s); printa("%d %@d\n", @s); exit(0); }
