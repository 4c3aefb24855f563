/* Prints, for each value, how C's printf renders it with the formats pmie
 * uses for values (%d for integral values, %g below 0.5, %.2f below 5, %.1f
 * below 50, %.0f above), cut to 23 characters as a 24-byte buffer does.
 * Build: cc -O0 -o gen gen.c -lm && ./gen > numfmt.golden */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>

static void show(double v)
{
    char buf[24];
    if (v == (int)v)
	snprintf(buf, sizeof(buf), "%d", (int)v);
    else {
	double a = v < 0 ? -v : v;
	const char *f = a < 0.5 ? "%g" : a < 5 ? "%.2f" : a < 50 ? "%.1f" : "%.0f";
	snprintf(buf, sizeof(buf), f, v);
    }
    printf("%a %s\n", v, buf);
}

int main(void)
{
    double fixed[] = { 0, 1, -1, 0.5, 0.25, 0.1, 0.123456789, 1e-5, 1.5e-7,
	0.00012345, 0.0001, 0.499999, 4.999, 4.995, 4.994999, 49.95, 49.94,
	1.005, 2.675, 50.5, 51.5, 1e20, -1e20, 1e30, 2147483647.0, 2147483648.5,
	-2147483648.0, -2147483649.5, 123456.789, 0.3, -0.3, 0.0196751, 0.68,
	1e-300, 5e-324, 1.7976931348623157e308, 0.05, 12.25, 12.35, 0.125 };
    int i;
    for (i = 0; i < (int)(sizeof(fixed)/sizeof(fixed[0])); i++)
	show(fixed[i]);
    srand(42);
    for (i = 0; i < 2000; i++) {
	double m = (double)rand() / RAND_MAX;
	int e = rand() % 40 - 20;
	double v = m * pow(10, e);
	if (rand() % 3 == 0) v = -v;
	if (rand() % 5 == 0) v = round(v * 100) / 100 + 0.005;
	show(v);
    }
    return 0;
}
