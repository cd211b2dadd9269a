/* Decimal text <-> binary64, exact, in the core's own code: the same results natively and in
 * WebAssembly, and none of libc's long-double printf/strtod machinery in the .wasm (issue 16:
 * about 24 KB of it).
 *
 * Both directions are correctly rounded (to nearest, ties to even), so they agree bit for bit
 * with glibc's and musl's strtod and printf (tests/c/test_format.c checks them against the
 * host libc). */
#ifndef LIMBER_BASE_DECIMAL_H
#define LIMBER_BASE_DECIMAL_H

#include <stddef.h>

/* strtod: optional white space and sign, then decimal digits with an optional '.' and an
 * optional exponent (e or E, optional sign, digits), or "inf", "infinity", "nan"
 * (any case). *end (if not null) receives the first character not used, or s when no number
 * was read (the result is then 0). Out of range: +-HUGE_VAL or +-0, as strtod (errno is not
 * set). Hexadecimal floats are not read. */
double lb_strtod(const char *s, char **end);

/* The digits of finite |v| rounded at decimal place `place` (keep digits of weight >=
 * 10^place; ties to even; place >= -1075, where a binary64's digits end): writes them to digits
 * (most significant first, no leading zeros, at least "0"), NUL-terminated, at most cap - 1 of
 * them, and returns their count. *top receives the place of the first digit (10^top), or place when
 * the rounded value is 0. Used by lb_vsnprintf's %e, %f and %g. */
int lb_decimal_digits(double v, int place, char *digits, int cap, int *top);

/* The same rounded at `count` >= 1 significant digits, for finite v != 0 (one expansion: the
 * first significant digit's place is found on the way). */
int lb_decimal_significant(double v, int count, char *digits, int cap, int *top);

#endif
