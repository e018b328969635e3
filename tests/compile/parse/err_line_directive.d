#line abc
BEGIN { x = ; }
#line 50 "lib.d"
END { y = ; }
