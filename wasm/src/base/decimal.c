/* Exact decimal <-> binary64 (see decimal.h).
 *
 * Reading: a short number (<= 15 digits, power of ten <= 22) is one exact IEEE product or
 * quotient of two exact values (Clinger's fast path), so the one rounding is the right one.
 * Anything else starts from a double estimate and walks it one ulp at a time until the exact
 * value lies between the midpoints to its neighbours, each decided by comparing big integers
 * (digits x 10^e against (2m + 1) x 2^(k - 1)).
 * Writing: the exact expansion of m x 2^k (integer part by division by 10^9, fraction digit
 * by digit by multiplication by 10), rounded at the asked place with the digits after it. */
#include "decimal.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Significant digits kept when reading: more than the 767 a binary64 decision can need; the
 * rest only says whether it was nonzero. */
#define LB_DEC_DIGITS 780
/* 32-bit words of the big integers: digits x 2^1075 or 2^55 x 10^1105 (< 3700 bits). */
#define LB_BIG_WORDS 124
/* A binary64 has at most 1074 fraction digits and 309 integer digits. */
#define LB_DEC_FRACTION 1075
#define LB_DEC_INTEGER 310

typedef struct lb_big {
  uint32_t w[LB_BIG_WORDS]; /* least significant first */
  int n;                    /* words in use, no leading zero word */
} lb_big;

static void lb_big_set(lb_big *b, uint64_t v) {
  b->n = 0;
  while (v) {
    b->w[b->n++] = (uint32_t)v;
    v >>= 32;
  }
}

/* b = b * f + add */
static void lb_big_mul_add(lb_big *b, uint32_t f, uint32_t add) {
  uint64_t carry = add;
  for (int i = 0; i < b->n; ++i) {
    uint64_t t = (uint64_t)b->w[i] * f + carry;
    b->w[i] = (uint32_t)t;
    carry = t >> 32;
  }
  if (carry && b->n < LB_BIG_WORDS) {
    b->w[b->n++] = (uint32_t)carry;
  }
}

static void lb_big_shl(lb_big *b, int bits) {
  if (b->n == 0 || bits <= 0) {
    return;
  }
  int words = bits / 32, r = bits % 32;
  if (r) {
    uint32_t carry = 0;
    for (int i = 0; i < b->n; ++i) {
      uint32_t x = b->w[i];
      b->w[i] = (x << r) | carry;
      carry = x >> (32 - r);
    }
    if (carry && b->n < LB_BIG_WORDS) {
      b->w[b->n++] = carry;
    }
  }
  if (words) {
    int n = b->n + words <= LB_BIG_WORDS ? b->n : LB_BIG_WORDS - words;
    memmove(b->w + words, b->w, (size_t)n * sizeof(uint32_t));
    memset(b->w, 0, (size_t)words * sizeof(uint32_t));
    b->n = n + words;
  }
}

/* b = b * 10^e, e >= 0 */
static void lb_big_mul_pow10(lb_big *b, int e) {
  static const uint32_t pow5[14] = {1u,       5u,        25u,        125u,       625u,
                                    3125u,    15625u,    78125u,     390625u,    1953125u,
                                    9765625u, 48828125u, 244140625u, 1220703125u};
  for (int k = e; k > 0; k -= 13) {
    lb_big_mul_add(b, pow5[k < 13 ? k : 13], 0);
  }
  lb_big_shl(b, e);
}

static int lb_big_cmp(const lb_big *a, const lb_big *b) {
  if (a->n != b->n) {
    return a->n < b->n ? -1 : 1;
  }
  for (int i = a->n - 1; i >= 0; --i) {
    if (a->w[i] != b->w[i]) {
      return a->w[i] < b->w[i] ? -1 : 1;
    }
  }
  return 0;
}

/* b = b / d, returns the remainder (d > 0). */
static uint32_t lb_big_div_small(lb_big *b, uint32_t d) {
  uint64_t r = 0;
  for (int i = b->n - 1; i >= 0; --i) {
    uint64_t t = (r << 32) | b->w[i];
    b->w[i] = (uint32_t)(t / d);
    r = t % d;
  }
  while (b->n > 0 && b->w[b->n - 1] == 0) {
    b->n--;
  }
  return (uint32_t)r;
}

static uint64_t lb_bits_of(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

static double lb_from_bits(uint64_t u) {
  double x;
  memcpy(&x, &u, sizeof x);
  return x;
}

/* x = m 2^k (x >= 0 finite). */
static void lb_decompose(double x, uint64_t *m, int *k) {
  uint64_t u = lb_bits_of(x) & ~(1ull << 63);
  int e = (int)(u >> 52);
  uint64_t frac = u & ((1ull << 52) - 1u);
  *m = e ? frac | (1ull << 52) : frac;
  *k = e ? e - 1075 : -1074;
}

/* ---- reading ---------------------------------------------------------------------------- */

static const double k_pow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Sign of digits x 10^e (+ something when sticky) - h x 2^q. */
static int lb_cmp_mid(const lb_big *d, int e, bool sticky, uint64_t h, int q) {
  lb_big l = *d, r;
  lb_big_set(&r, h);
  if (e >= 0) {
    lb_big_mul_pow10(&l, e);
  } else {
    lb_big_mul_pow10(&r, -e);
  }
  if (q >= 0) {
    lb_big_shl(&r, q);
  } else {
    lb_big_shl(&l, -q);
  }
  int c = lb_big_cmp(&l, &r);
  return c == 0 && sticky ? 1 : c;
}

/* digits[0..nd) (no leading or trailing zero) x 10^e, plus a little when sticky; >= 0. */
static double lb_convert(const char *digits, int nd, long e, bool sticky) {
  if (nd + e > 310) {
    return lb_from_bits(0x7ffull << 52); /* >= 10^310 */
  }
  if (nd + e < -324) {
    return 0.0; /* < 10^-325, below half the smallest subnormal */
  }
  uint64_t w = 0;
  int lead = nd < 19 ? nd : 19;
  for (int i = 0; i < lead; ++i) {
    w = w * 10u + (uint64_t)digits[i];
  }
  if (nd <= 15 && !sticky) {
    if (e >= 0 && e <= 22) {
      return (double)w * k_pow10[e];
    }
    if (e < 0 && e >= -22) {
      return (double)w / k_pow10[-e];
    }
    if (e > 22 && e <= 22 + 15 - nd) { /* w 10^(e - 22) is still exact */
      for (long i = 22; i < e; ++i) {
        w *= 10u;
      }
      return (double)w * 1e22;
    }
  }
  /* estimate, then the exact walk */
  long scale = e + (nd - lead);
  double x = (double)w;
  for (; scale > 22; scale -= 22) {
    x *= 1e22;
  }
  for (; scale < -22; scale += 22) {
    x /= 1e22;
  }
  x = scale >= 0 ? x * k_pow10[scale] : x / k_pow10[-scale];
  if (lb_bits_of(x) >= 0x7ffull << 52) {
    x = lb_from_bits((0x7ffull << 52) - 1u); /* the largest finite: the walk decides on inf */
  }
  lb_big d;
  lb_big_set(&d, 0);
  for (int i = 0; i < nd; ++i) {
    lb_big_mul_add(&d, 10u, (uint32_t)digits[i]);
  }
  for (;;) {
    uint64_t m;
    int k;
    lb_decompose(x, &m, &k);
    int up = lb_cmp_mid(&d, (int)e, sticky, 2u * m + 1u, k - 1);
    if (up > 0 || (up == 0 && (m & 1u))) {
      x = lb_from_bits(lb_bits_of(x) + 1u);
      if (lb_bits_of(x) >= 0x7ffull << 52) {
        return x; /* past the midpoint above the largest finite: inf */
      }
      continue;
    }
    if (x == 0.0) {
      return x;
    }
    double below = lb_from_bits(lb_bits_of(x) - 1u);
    uint64_t mb;
    int kb;
    lb_decompose(below, &mb, &kb);
    int down = lb_cmp_mid(&d, (int)e, sticky, 2u * mb + 1u, kb - 1);
    if (down < 0 || (down == 0 && (m & 1u))) {
      x = below;
      continue;
    }
    return x;
  }
}

static int lb_lower(int c) {
  return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

static bool lb_is_digit(int c) {
  return c >= '0' && c <= '9';
}

/* Length of `word` at s, any case, or 0. */
static int lb_word_at(const char *s, const char *word) {
  int i = 0;
  for (; word[i]; ++i) {
    if (lb_lower((unsigned char)s[i]) != word[i]) {
      return 0;
    }
  }
  return i;
}

/* inf, infinity or nan (with an optional n-char-sequence) at p, any case: true with *out (the
 * sign's bits applied) and *after set past it. */
static bool lb_read_special(const char *p, uint64_t sign, double *out, const char **after) {
  if (lb_word_at(p, "inf")) {
    int more = lb_word_at(p + 3, "inity");
    *after = p + 3 + more;
    *out = lb_from_bits(sign | 0x7ffull << 52);
    return true;
  }
  if (!lb_word_at(p, "nan")) {
    return false;
  }
  p += 3;
  if (*p == '(') { /* nan(n-char-sequence) */
    const char *q = p + 1;
    while (lb_is_digit(*q) || (lb_lower(*q) >= 'a' && lb_lower(*q) <= 'z') || *q == '_') {
      ++q;
    }
    p = *q == ')' ? q + 1 : p;
  }
  *after = p;
  *out = lb_from_bits(sign | 0x7ff8ull << 48);
  return true;
}

/* The significand's digits at *p (moved past them): up to LB_DEC_DIGITS significant ones
 * into digits[0..*nd) with the decimal exponent *e, and whether any digit beyond them is
 * non-zero (*sticky). False when there is no digit. */
static bool lb_read_digits(const char **pp, char *digits, int *nd, long *e, bool *sticky) {
  const char *p = *pp;
  bool any = false;
  for (; lb_is_digit(*p); ++p) {
    any = true;
    if (*nd == 0 && *p == '0') {
      continue;
    }
    if (*nd < LB_DEC_DIGITS) {
      digits[(*nd)++] = (char)(*p - '0');
    } else {
      ++*e;
      *sticky = *sticky || *p != '0';
    }
  }
  if (*p == '.' && (any || lb_is_digit(p[1]))) {
    for (++p; lb_is_digit(*p); ++p) {
      any = true;
      if (*nd == 0 && *p == '0') {
        --*e;
      } else if (*nd < LB_DEC_DIGITS) {
        digits[(*nd)++] = (char)(*p - '0');
        --*e;
      } else {
        *sticky = *sticky || *p != '0';
      }
    }
  }
  *pp = p;
  return any;
}

/* An exponent part at *p (e or E, a sign, digits), added to *e; *p moves past it only when
 * it has digits. */
static void lb_read_exponent(const char **pp, long *e) {
  const char *p = *pp;
  if (lb_lower(*p) != 'e') {
    return;
  }
  const char *q = p + 1;
  bool eneg = *q == '-';
  if (*q == '+' || *q == '-') {
    ++q;
  }
  if (lb_is_digit(*q)) {
    long x = 0;
    for (; lb_is_digit(*q); ++q) {
      x = x < 100000 ? x * 10 + (*q - '0') : x;
    }
    *e += eneg ? -x : x;
    *pp = q;
  }
}

double lb_strtod(const char *s, char **end) {
  const char *p = s;
  while (*p == ' ' || (*p >= '\t' && *p <= '\r')) {
    ++p;
  }
  bool neg = *p == '-';
  if (*p == '+' || *p == '-') {
    ++p;
  }
  uint64_t sign = neg ? 1ull << 63 : 0u;
  double special;
  const char *after;
  if (lb_read_special(p, sign, &special, &after)) {
    if (end) {
      *end = (char *)after;
    }
    return special;
  }
  char digits[LB_DEC_DIGITS];
  int nd = 0;
  long e = 0;
  bool sticky = false;
  if (!lb_read_digits(&p, digits, &nd, &e, &sticky)) {
    if (end) {
      *end = (char *)s;
    }
    return 0.0;
  }
  lb_read_exponent(&p, &e);
  if (end) {
    *end = (char *)p;
  }
  while (nd > 0 && digits[nd - 1] == 0) {
    nd--;
    e++;
  }
  return lb_from_bits(sign | (nd == 0 ? 0u : lb_bits_of(lb_convert(digits, nd, e, sticky))));
}

/* ---- writing ---------------------------------------------------------------------------- */

/* The exact expansion's digits of |v| from its first integer digit (or, for |v| < 1, from the
 * first fraction digit) down to place `last` (fraction digits beyond the 1075 a binary64 can
 * have are 0); returns how many, the place of out[0] in *first and whether anything nonzero
 * follows place `last` in *rest. */
static int lb_expansion(double v, int last, char *out, int cap, int *first, bool *rest) {
  uint64_t m;
  int k;
  lb_decompose(v, &m, &k);
  lb_big ip, fp; /* integer part; fraction part over 2^s */
  int s = k < 0 ? -k : 0;
  lb_big_set(&ip, 0);
  lb_big_set(&fp, 0);
  if (k >= 0) {
    lb_big_set(&ip, m);
    lb_big_shl(&ip, k);
  } else if (s < 64) {
    lb_big_set(&ip, m >> s);
    lb_big_set(&fp, m & ((1ull << s) - 1u));
  } else {
    lb_big_set(&fp, m);
  }
  char ints[LB_DEC_INTEGER + 10];
  int ni = 0;
  while (ip.n > 0) {
    uint32_t chunk = lb_big_div_small(&ip, 1000000000u);
    for (int i = 0; i < 9; ++i) {
      ints[ni++] = (char)(chunk % 10u);
      chunk /= 10u;
    }
  }
  while (ni > 0 && ints[ni - 1] == 0) {
    ni--;
  }
  int count = 0;
  *first = ni > 0 ? ni - 1 : -1;
  for (int i = ni - 1; i >= 0 && count < cap; --i) {
    out[count++] = ints[i];
  }
  for (int place = -1; place >= last && count < cap && place >= -LB_DEC_FRACTION; --place) {
    if (fp.n == 0) { /* the rest down to `last` is zeros */
      int stop = last > -LB_DEC_FRACTION ? last : -LB_DEC_FRACTION;
      int zeros = place - stop + 1 < cap - count ? place - stop + 1 : cap - count;
      memset(out + count, 0, (size_t)zeros);
      count += zeros;
      break;
    }
    lb_big_mul_add(&fp, 10u, 0);
    /* digit = fp >> s, fp &= 2^s - 1 */
    int word = s / 32, bit = s % 32;
    uint64_t hi = 0;
    for (int i = fp.n - 1; i >= word; --i) {
      hi = (hi << 32) | fp.w[i];
    }
    uint32_t digit = (uint32_t)(hi >> bit);
    out[count++] = (char)digit;
    if (word < fp.n) {
      fp.w[word] &= bit ? (1u << bit) - 1u : 0u;
      fp.n = word + 1 < fp.n ? word + 1 : fp.n;
    }
    while (fp.n > 0 && fp.w[fp.n - 1] == 0) {
      fp.n--;
    }
  }
  *rest = fp.n > 0;
  return count;
}

/* The expansion d[0..n) (d[0] of place `first`; `rest`: something nonzero follows d[n - 1])
 * rounded at `place`: lb_decimal_digits's result. */
static int lb_round_at(const char *d, int n, int first, bool rest, int place, char *digits, int cap,
                       int *top) {
  /* kept: places first .. place; index of place p is first - p */
  int keep = first - place + 1;
  int round_i = keep; /* index of the rounding digit */
  int round = round_i >= 0 && round_i < n ? d[round_i] : 0;
  bool after = rest;
  for (int i = round_i + 1; i < n && !after; ++i) {
    after = i >= 0 && d[i] != 0;
  }
  /* R = the kept digits as an integer, leading zeros dropped */
  char r[LB_DEC_INTEGER + LB_DEC_FRACTION + 4];
  int len = 0;
  for (int i = 0; i < keep; ++i) {
    int digit = i < n ? d[i] : 0;
    if (len == 0 && digit == 0) {
      continue;
    }
    r[len++] = (char)digit;
  }
  bool odd = len > 0 && (r[len - 1] & 1);
  if (round > 5 || (round == 5 && (after || odd))) {
    int i = len - 1;
    for (; i >= 0 && r[i] == 9; --i) {
      r[i] = 0;
    }
    if (i >= 0) {
      r[i]++;
    } else {
      memmove(r + 1, r, (size_t)len);
      r[0] = 1;
      len++;
    }
  }
  if (len == 0) {
    r[len++] = 0;
    *top = place;
  } else {
    *top = place + len - 1;
  }
  int out = len < cap - 1 ? len : cap - 1;
  for (int i = 0; i < out; ++i) {
    digits[i] = (char)('0' + r[i]);
  }
  digits[out > 0 ? out : 0] = 0;
  return out;
}

int lb_decimal_digits(double v, int place, char *digits, int cap, int *top) {
  place = place < -LB_DEC_FRACTION ? -LB_DEC_FRACTION : place;
  char d[LB_DEC_INTEGER + LB_DEC_FRACTION + 4];
  int first;
  bool rest;
  int last = place - 1; /* the rounding digit's place */
  int n = lb_expansion(v, last < -LB_DEC_FRACTION ? -LB_DEC_FRACTION : last, d, (int)sizeof d,
                       &first, &rest);
  return lb_round_at(d, n, first, rest, place, digits, cap, top);
}

int lb_decimal_significant(double v, int count, char *digits, int cap, int *top) {
  char d[LB_DEC_INTEGER + LB_DEC_FRACTION + 4];
  int first;
  bool rest;
  int n = lb_expansion(v, -LB_DEC_FRACTION, d, (int)sizeof d, &first, &rest);
  int lead = 0;
  while (lead < n && d[lead] == 0) {
    lead++;
  }
  int place = first - lead - (count - 1);
  place = place < -LB_DEC_FRACTION ? -LB_DEC_FRACTION : place;
  return lb_round_at(d, n, first, rest, place, digits, cap, top);
}
