#include <stdio.h>
BEGIN { trace(1); }
