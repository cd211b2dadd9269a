/* printf-style formatting (see format.h). Floating conversions take their digits from
 * lb_decimal_digits and lb_decimal_significant (exact, one expansion each), so %g of a float
 * printed with 9 digits reads back to the same float, as with libc. */
#include "format.h"
#include "decimal.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define LB_FMT_MAX_PRECISION 700
/* Digits a floating conversion can produce: 309 integer + 700 fraction, or 700 + exponent. */
#define LB_FMT_FLOAT_BUF 1100

typedef struct lb_out {
  char *buf;
  size_t cap; /* bytes of buf */
  size_t len; /* characters the whole text has so far */
} lb_out;

static void lb_put(lb_out *o, char c) {
  if (o->len + 1u < o->cap) {
    o->buf[o->len] = c;
  }
  o->len++;
}

static void lb_put_n(lb_out *o, const char *s, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    lb_put(o, s[i]);
  }
}

static void lb_pad(lb_out *o, char c, int n) {
  for (int i = 0; i < n; ++i) {
    lb_put(o, c);
  }
}

typedef struct lb_spec {
  bool left, plus, space, alt, zero;
  int width;
  int precision; /* -1: none */
} lb_spec;

/* prefix (sign, 0x), zeros (precision or 0 flag), body, within the field width */
static void lb_put_field(lb_out *o, const lb_spec *sp, const char *prefix, int zeros,
                         const char *body, int body_len, bool zero_pad) {
  int plen = (int)strlen(prefix);
  int total = plen + zeros + body_len;
  int fill = sp->width > total ? sp->width - total : 0;
  if (!sp->left && !(zero_pad && sp->zero)) {
    lb_pad(o, ' ', fill);
  }
  lb_put_n(o, prefix, (size_t)plen);
  if (!sp->left && zero_pad && sp->zero) {
    lb_pad(o, '0', fill);
  }
  lb_pad(o, '0', zeros);
  lb_put_n(o, body, (size_t)body_len);
  if (sp->left) {
    lb_pad(o, ' ', fill);
  }
}

static void lb_put_integer(lb_out *o, const lb_spec *sp, uintmax_t v, bool neg, int base,
                           bool upper, char conv) {
  char digits[72];
  int n = 0;
  const char *set = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  for (uintmax_t x = v; x; x /= (uintmax_t)base) {
    digits[n++] = set[x % (uintmax_t)base];
  }
  char body[72];
  for (int i = 0; i < n; ++i) {
    body[i] = digits[n - 1 - i];
  }
  int zeros = 0;
  if (sp->precision >= 0) {
    zeros = sp->precision > n ? sp->precision - n : 0;
  } else if (n == 0) {
    zeros = 1; /* the value 0 */
  }
  if (conv == 'o' && sp->alt && zeros == 0 && (n == 0 || body[0] != '0')) {
    zeros = 1;
  }
  const char *prefix = neg         ? "-"
                       : sp->plus  ? (conv == 'd' || conv == 'i' ? "+" : "")
                       : sp->space ? (conv == 'd' || conv == 'i' ? " " : "")
                                   : "";
  if ((conv == 'x' || conv == 'X' || conv == 'p') && (sp->alt || conv == 'p') && v != 0) {
    prefix = upper ? "0X" : "0x";
  }
  lb_put_field(o, sp, prefix, zeros, body, n, sp->precision < 0);
}

/* Removes the trailing zeros of a fraction (and its point when nothing is left). */
static int lb_trim_fraction(char *s, int len) {
  const char *dot = memchr(s, '.', (size_t)len);
  if (!dot) {
    return len;
  }
  while (len > 0 && s[len - 1] == '0') {
    len--;
  }
  if (len > 0 && s[len - 1] == '.') {
    len--;
  }
  return len;
}

/* digits with a point after `int_digits` of them (none: "0."), `frac` digits after it */
static int lb_fixed_text(const char *r, int len, int frac, bool point, char *out) {
  int n = 0;
  if (len > frac) {
    memcpy(out, r, (size_t)(len - frac));
    n = len - frac;
  } else {
    out[n++] = '0';
  }
  if (frac > 0 || point) {
    out[n++] = '.';
  }
  for (int i = 0; i < frac; ++i) { /* the fraction: r's last `frac` digits, zero-padded */
    int k = len - frac + i;
    out[n++] = k >= 0 ? r[k] : '0';
  }
  return n;
}

static int lb_exp_text(const char *r, int digits, int x, bool point, bool upper, char *out) {
  int n = 0;
  out[n++] = r[0];
  if (digits > 1 || point) {
    out[n++] = '.';
  }
  for (int i = 1; i < digits; ++i) {
    out[n++] = r[i];
  }
  out[n++] = upper ? 'E' : 'e';
  out[n++] = x < 0 ? '-' : '+';
  int a = x < 0 ? -x : x;
  char e[8];
  int ne = 0;
  do {
    e[ne++] = (char)('0' + a % 10);
    a /= 10;
  } while (a);
  if (ne < 2) {
    e[ne++] = '0';
  }
  while (ne > 0) {
    out[n++] = e[--ne];
  }
  return n;
}

static void lb_put_float(lb_out *o, const lb_spec *sp, double v, char conv) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  bool neg = (bits >> 63) != 0;
  bool upper = conv == 'E' || conv == 'F' || conv == 'G';
  char c = (char)(upper ? conv + ('a' - 'A') : conv);
  const char *prefix = neg ? "-" : sp->plus ? "+" : sp->space ? " " : "";
  double a = neg ? -v : v;
  if (a != a || a > 1.7976931348623157e308) {
    const char *t = a != a ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf");
    lb_put_field(o, sp, prefix, 0, t, 3, false);
    return;
  }
  int p = sp->precision < 0 ? 6 : sp->precision;
  p = p > LB_FMT_MAX_PRECISION ? LB_FMT_MAX_PRECISION : p;
  char r[LB_FMT_FLOAT_BUF], text[LB_FMT_FLOAT_BUF + 16];
  int len, top, n;
  if (c == 'f') {
    len = lb_decimal_digits(a, -p, r, (int)sizeof r, &top);
    n = lb_fixed_text(r, len, p, sp->alt, text);
  } else {
    int sig = c == 'g' && p == 0 ? 1 : c == 'g' ? p : p + 1;
    int x = 0; /* the place of the first digit */
    if (a == 0.0) {
      memset(r, '0', (size_t)sig);
      len = sig;
    } else {
      len = lb_decimal_significant(a, sig, r, (int)sizeof r, &x);
      len = len > sig ? sig : len; /* a carry (9.99 -> 10.0) added a digit: a trailing 0 */
    }
    if (c == 'e' || x < -4 || x >= sig) {
      n = lb_exp_text(r, sig, x, sp->alt, upper, text);
      if (c == 'g' && !sp->alt) { /* trailing zeros of the mantissa go */
        char *e = memchr(text, upper ? 'E' : 'e', (size_t)n);
        int m = (int)(e - text), kept = lb_trim_fraction(text, m);
        memmove(text + kept, e, (size_t)(n - m));
        n = kept + (n - m);
      }
    } else {
      /* %g's fixed form: sig - 1 - x fraction digits, from the same rounded digits */
      int frac = sig - 1 - x;
      n = lb_fixed_text(r, len, frac, sp->alt, text);
      if (!sp->alt) {
        n = lb_trim_fraction(text, n);
      }
    }
  }
  lb_put_field(o, sp, prefix, 0, text, n, true);
}

/* The flags, width and precision of a conversion: *f is at the character after '%' and moves
 * past them (`*` takes an int argument). */
static lb_spec lb_read_spec(const char **fp, va_list *ap) {
  const char *f = *fp;
  lb_spec sp = {false, false, false, false, false, 0, -1};
  for (;; ++f) {
    if (*f == '-') {
      sp.left = true;
    } else if (*f == '+') {
      sp.plus = true;
    } else if (*f == ' ') {
      sp.space = true;
    } else if (*f == '#') {
      sp.alt = true;
    } else if (*f == '0') {
      sp.zero = true;
    } else {
      break;
    }
  }
  if (*f == '*') {
    sp.width = va_arg(*ap, int);
    if (sp.width < 0) {
      sp.left = true;
      sp.width = -sp.width;
    }
    ++f;
  } else {
    for (; *f >= '0' && *f <= '9'; ++f) {
      sp.width = sp.width < 100000 ? sp.width * 10 + (*f - '0') : sp.width;
    }
  }
  if (*f == '.') {
    ++f;
    sp.precision = 0;
    if (*f == '*') {
      sp.precision = va_arg(*ap, int);
      sp.precision = sp.precision < 0 ? -1 : sp.precision;
      ++f;
    } else {
      for (; *f >= '0' && *f <= '9'; ++f) {
        sp.precision = sp.precision < 100000 ? sp.precision * 10 + (*f - '0') : sp.precision;
      }
    }
  }
  *fp = f;
  return sp;
}

/* The length modifier at *f (moved past it): -2 hh, -1 h, 0 int, 1 long, 2 long long,
 * 3 size_t, 4 intmax_t, 5 ptrdiff_t. */
static int lb_read_size(const char **fp) {
  const char *f = *fp;
  int size = 0;
  if (*f == 'h') {
    size = f[1] == 'h' ? -2 : -1;
    f += f[1] == 'h' ? 2 : 1;
  } else if (*f == 'l') {
    size = f[1] == 'l' ? 2 : 1;
    f += f[1] == 'l' ? 2 : 1;
  } else if (*f == 'z' || *f == 'j' || *f == 't') {
    size = *f == 'z' ? 3 : *f == 'j' ? 4 : 5;
    ++f;
  }
  *fp = f;
  return size;
}

/* A signed integer argument of the given size, as intmax_t. */
static intmax_t lb_signed_arg(int size, va_list *ap) {
  intmax_t v = size == 1   ? va_arg(*ap, long)
               : size == 2 ? va_arg(*ap, long long)
               : size == 3 ? (intmax_t)va_arg(*ap, size_t)
               : size == 4 ? va_arg(*ap, intmax_t)
               : size == 5 ? va_arg(*ap, ptrdiff_t)
                           : va_arg(*ap, int);
  return size == -2 ? (signed char)v : size == -1 ? (short)v : v;
}

/* An unsigned integer argument of the given size, as uintmax_t. */
static uintmax_t lb_unsigned_arg(int size, va_list *ap) {
  uintmax_t v = size == 1   ? va_arg(*ap, unsigned long)
                : size == 2 ? va_arg(*ap, unsigned long long)
                : size == 3 ? va_arg(*ap, size_t)
                : size == 4 ? va_arg(*ap, uintmax_t)
                : size == 5 ? (uintmax_t)va_arg(*ap, ptrdiff_t)
                            : va_arg(*ap, unsigned int);
  return size == -2 ? (unsigned char)v : size == -1 ? (unsigned short)v : v;
}

/* One conversion's argument written by its spec. */
static void lb_put_conversion(lb_out *o, const lb_spec *sp, int size, char conv, va_list *ap) {
  switch (conv) {
  case 'd':
  case 'i': {
    intmax_t v = lb_signed_arg(size, ap);
    uintmax_t mag = v < 0 ? (uintmax_t)0 - (uintmax_t)v : (uintmax_t)v;
    lb_put_integer(o, sp, mag, v < 0, 10, false, conv);
    break;
  }
  case 'u':
  case 'o':
  case 'x':
  case 'X': {
    uintmax_t v = lb_unsigned_arg(size, ap);
    int base = conv == 'u' ? 10 : conv == 'o' ? 8 : 16;
    lb_put_integer(o, sp, v, false, base, conv == 'X', conv);
    break;
  }
  case 'p': {
    uintptr_t v = (uintptr_t)va_arg(*ap, void *);
    lb_put_integer(o, sp, v, false, 16, false, 'p');
    break;
  }
  case 'c': {
    char ch = (char)va_arg(*ap, int);
    lb_spec plain = *sp;
    plain.precision = -1;
    lb_put_field(o, &plain, "", 0, &ch, 1, false);
    break;
  }
  case 's': {
    const char *s = va_arg(*ap, const char *);
    s = s ? s : "(null)";
    size_t len = 0;
    while (s[len] && (sp->precision < 0 || len < (size_t)sp->precision)) {
      len++;
    }
    lb_put_field(o, sp, "", 0, s, (int)len, false);
    break;
  }
  case 'e':
  case 'E':
  case 'f':
  case 'F':
  case 'g':
  case 'G':
    lb_put_float(o, sp, va_arg(*ap, double), conv);
    break;
  case '%':
    lb_put(o, '%');
    break;
  default: /* unsupported: written as it stands */
    lb_put(o, '%');
    lb_put(o, conv);
    break;
  }
}

int lb_vsnprintf(char *buf, size_t cap, const char *fmt, va_list ap) {
  lb_out o = {buf, cap, 0};
  /* A copy the stages can advance through a pointer (a va_list parameter may be an array
   * that decayed to a pointer, whose address is not a va_list *). */
  va_list args;
  va_copy(args, ap);
  for (const char *f = fmt; *f; ++f) {
    if (*f != '%') {
      lb_put(&o, *f);
      continue;
    }
    ++f;
    lb_spec sp = lb_read_spec(&f, &args);
    int size = lb_read_size(&f);
    char conv = *f;
    if (!conv) {
      break;
    }
    lb_put_conversion(&o, &sp, size, conv, &args);
  }
  va_end(args);
  if (cap > 0) {
    buf[o.len < cap ? o.len : cap - 1u] = 0;
  }
  return (int)o.len;
}

int lb_snprintf(char *buf, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = lb_vsnprintf(buf, n, fmt, ap);
  va_end(ap);
  return r;
}

int lb_sprintf(char *buf, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = lb_vsnprintf(buf, (size_t)-1 / 2u, fmt, ap);
  va_end(ap);
  return r;
}

int lb_sscanf(const char *s, const char *fmt, ...) {
  if (strcmp(fmt, "%lg") != 0) {
    return 0;
  }
  char *end = NULL;
  double v = lb_strtod(s, &end);
  if (end == s) {
    return 0;
  }
  va_list ap;
  va_start(ap, fmt);
  *va_arg(ap, double *) = v;
  va_end(ap);
  return 1;
}
