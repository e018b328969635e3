/*
 * The floating-point values the floats trigger writes and the test that
 * traces it expects (tests/e2e/test_floats.c): ordinary, tiny, huge and
 * signed zero doubles, infinities and NaNs, floats, and long doubles in
 * x86-64's 80-bit format, one struct laid out as D lays it out too.
 */
#ifndef DCC_E2E_FLOATS_H
#define DCC_E2E_FLOATS_H

#include <math.h>

#define FLOAT_ND 10
#define FLOAT_NF 3
#define FLOAT_NLD 2

struct float_vals {
	double d[FLOAT_ND];
	float f[FLOAT_NF];
	long double ld[FLOAT_NLD];
};

/* The same declaration in D. */
#define FLOAT_VALS_D                                                                    \
	"struct float_vals { double d[10]; float f[3]; long double ld[2]; };\n"

#define FLOAT_VALS_INIT                                                                 \
	{ { 3.14159, -2.5e-3, 1e300, 0.0, -0.0, 123456789.125, 4.9e-324, INFINITY,     \
	    -INFINITY, NAN },                                                           \
	  { 1.5f, -0.1f, 3.4e38f },                                                    \
	  { 2.718281828459045235360287471352662L, -1.0e-4000L } }

#endif
