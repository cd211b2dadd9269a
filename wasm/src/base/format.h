/* printf-style formatting in the core's own code (messages, JSON numbers): the same text
 * natively and in WebAssembly, and no libc printf in the .wasm (issue 16).
 *
 * C99 conversions d i u o x X c s p % and e E f F g G (exact, ties to even: the text glibc
 * and musl print), flags - + space # 0, width and precision (numbers or *), length modifiers
 * hh h l ll z j t. Not supported: %n, %a, long double (L), wide characters (%lc, %ls);
 * precisions above 700 on floating conversions are taken as 700. */
#ifndef LIMBER_BASE_FORMAT_H
#define LIMBER_BASE_FORMAT_H

#include <stdarg.h>
#include <stddef.h>

#if defined(__GNUC__) || defined(__clang__)
#define LB_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define LB_PRINTF(f, a)
#endif

/* vsnprintf / snprintf: at most n - 1 characters and a NUL (nothing when n is 0); returns
 * the length the whole text has. */
int lb_vsnprintf(char *buf, size_t n, const char *fmt, va_list ap) LB_PRINTF(3, 0);
int lb_snprintf(char *buf, size_t n, const char *fmt, ...) LB_PRINTF(3, 4);

/* What the third-party JSON parser (cJSON, built with -Dsprintf=lb_sprintf
 * -Dsscanf=lb_sscanf -Dstrtod=lb_strtod, CMakeLists.txt) calls: sprintf into its own buffer,
 * and sscanf for the one pattern it uses, "%lg" (any other pattern matches nothing: 0). */
int lb_sprintf(char *buf, const char *fmt, ...) LB_PRINTF(2, 3);
int lb_sscanf(const char *s, const char *fmt, ...);

#endif
