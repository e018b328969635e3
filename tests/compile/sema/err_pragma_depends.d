/* a dependency this system cannot satisfy refuses the script */
#pragma D depends_on library ip.d
#pragma D depends_on provider fasttrap
#pragma D depends_on module no_such_module
#pragma D depends_on driver foo
#pragma D depends_on provider
BEGIN { exit(0); }
