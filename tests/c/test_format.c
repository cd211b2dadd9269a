/* The core's own number reading and formatting (base/decimal.c, base/format.c) against the
 * host libc (glibc, exact): bit-identical strtod and character-identical printf on edge
 * cases and on seeded random values, numbers and strings. */
#include "../../wasm/src/base/decimal.h"
#include "../../wasm/src/base/format.h"
#include "test.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t g_state = 0x9e3779b97f4a7c15ull;

static uint64_t next_u64(void) {
  g_state ^= g_state << 13;
  g_state ^= g_state >> 7;
  g_state ^= g_state << 17;
  return g_state;
}

static double from_bits(uint64_t u) {
  double x;
  memcpy(&x, &u, sizeof x);
  return x;
}

static uint64_t bits_of(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

static int g_read_fail = 0;

/* lb_strtod and strtod agree on the value's bits and on where the number ends. */
static void check_read(const char *s) {
  char *end_a = NULL, *end_b = NULL;
  double a = lb_strtod(s, &end_a), b = strtod(s, &end_b);
  bool same = (bits_of(a) == bits_of(b) || (isnan(a) && isnan(b) && signbit(a) == signbit(b))) &&
              end_a == end_b;
  if (!same && g_read_fail++ < 10) {
    fprintf(stderr, "read \"%.80s\": %a (end +%d) want %a (end +%d)\n", s, a, (int)(end_a - s), b,
            (int)(end_b - s));
  }
  LB_CHECK(same);
}

static void test_read_edges(void) {
  const char *cases[] = {
      "0",
      "-0",
      "+0",
      "0.0",
      "1",
      "-1",
      "0.1",
      "0.2",
      "0.3",
      "1.8",
      "0.173",
      "3.14159",
      "1e22",
      "1e23",
      "9007199254740993",
      "9007199254740992",
      "9007199254740991",
      "123456789012345678901234567890",
      "1.7976931348623157e308",
      "1.7976931348623158e308",
      "1.7976931348623159e308",
      "1.797693134862315807e308",
      "1e309",
      "-1e309",
      "1e-400",
      "4.9406564584124654e-324",
      "2.4703282292062327e-324",
      "2.4703282292062328e-324",
      "2.2250738585072011e-308",
      "2.2250738585072012e-308",
      "2.2250738585072014e-308",
      "0.30000000000000004",
      "5e-324",
      "1e-323",
      "3e-324",
      "7.4e-324",
      "  42",
      "\t-7.5e+3x",
      ".5",
      "5.",
      ".",
      "-",
      "+",
      "e5",
      "1e",
      "1e+",
      "1e-",
      "1.5e+1000000",
      "1.5e-1000000",
      "inf",
      "-Infinity",
      "INFINITY",
      "infin",
      "nan",
      "-NaN",
      "nan(123)",
      "nan(",
      "00000000000000000000000001.5",
      "0.000000000000000000000000000000000001",
      "8.98846567431158e307",
      "1.00000000000000011102230246251565404236316680908203125",
      "1.00000000000000011102230246251565404236316680908203124",
      "1.00000000000000011102230246251565404236316680908203126",
      "2.225073858507201136057409796709131975934819546351645648023426109724822222021076945516529"
      "523908135087914149158913039621106870086438694594645527657207407820621743379988141063267329"
      "253552286881372149012981122451451889849057222307285255133155755015914397476397983411801999"
      "323962548289017107081850690630666655994938275772572015763062690663332647565300009245888316"
      "433037779791869612049497390377829704905051080609940730262937128958950003583799967207254304"
      "360284078895771796150945516748243471030702609144621572289880258182545180325707018860872113"
      "128079512233426288368622321503775666622503982534335974568884423900265498198385487948292206"
      "894721689831099698365846814022854243330660339850886445804001034933970427567186443383770486"
      "037861622771738545623065874679014086723327636718751e-308"};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    check_read(cases[i]);
  }
  /* hexadecimal floats are not read (decimal.h): "0x10" is the number 0, ending at the x */
  char *end = NULL;
  LB_CHECK(lb_strtod("0x10", &end) == 0.0 && end != NULL && *end == 'x');
  /* a 2000-digit number: digits past the kept ones only say whether they are zero */
  static char longer[2100];
  memset(longer, '9', 2000);
  longer[2000] = 0;
  check_read(longer);
  longer[0] = '0';
  longer[1] = '.';
  check_read(longer);
  memset(longer, '0', 2000);
  longer[0] = '1';
  longer[1999] = '1';
  check_read(longer);
}

/* Every double printed with 1 .. 25 significant digits reads back as libc reads it; exact
 * midpoints between neighbours (printed exactly) test ties to even. */
static void test_read_random(void) {
  char buf[1200];
  for (int i = 0; i < 30000; ++i) {
    uint64_t u = next_u64();
    double v = from_bits(u & ~(0x7ffull << 52 & (i % 3 ? 0u : ~0u)));
    if (!isfinite(v)) {
      continue;
    }
    int digits = 1 + (int)(next_u64() % 25u);
    snprintf(buf, sizeof buf, "%.*e", digits - 1, v);
    check_read(buf);
    snprintf(buf, sizeof buf, "%.*g", digits, v);
    check_read(buf);
    if (i % 8 == 0) {
      /* the exact midpoint to the next double up */
      double up = nextafter(fabs(v), INFINITY);
      if (isfinite(up)) {
        long double mid = ((long double)fabs(v) + (long double)up) / 2.0L;
        snprintf(buf, sizeof buf, "%.800Le", mid);
        check_read(buf);
      }
    }
  }
  /* short decimals, as scenes write them */
  for (int i = 0; i < 30000; ++i) {
    long long w = (long long)(next_u64() % 100000000ull) - 50000000;
    int e = (int)(next_u64() % 60u) - 40;
    snprintf(buf, sizeof buf, "%lld.%llde%d", w / 1000, (long long)llabs(w % 1000), e);
    check_read(buf);
  }
}

static int g_fmt_fail = 0;

#define CHECK_FORMAT(...)                                                                          \
  do {                                                                                             \
    char a_[1600], b_[1600];                                                                       \
    int na_ = lb_snprintf(a_, sizeof a_, __VA_ARGS__);                                             \
    int nb_ = snprintf(b_, sizeof b_, __VA_ARGS__);                                                \
    bool same_ = na_ == nb_ && strcmp(a_, b_) == 0;                                                \
    if (!same_ && g_fmt_fail++ < 10) {                                                             \
      fprintf(stderr, "format %s: \"%s\" (%d) want \"%s\" (%d)\n", #__VA_ARGS__, a_, na_, b_,      \
              nb_);                                                                                \
    }                                                                                              \
    LB_CHECK(same_);                                                                               \
  } while (0)

static void test_format_edges(void) {
  CHECK_FORMAT("plain %% text");
  CHECK_FORMAT("%d %i %u %x %X %o", -42, 0, 42u, 255u, 255u, 8u);
  CHECK_FORMAT("[%5d] [%-5d] [%05d] [%+d] [% d] [%.3d] [%8.3d] [%.0d]", 42, 42, -42, 42, 42, 7, -7,
               0);
  CHECK_FORMAT("%zu %llu %lld %ld %hhu %hd %08x %#x %#o %p", (size_t)123456,
               18446744073709551615ull, -9223372036854775807ll - 1, -5L, (unsigned char)200,
               (short)-12345, 0xbeefu, 255u, 8u, (void *)0x1234);
  CHECK_FORMAT("[%s] [%.3s] [%10s] [%-10s] [%.*s] [%c] [%3c]", "hello", "hello", "hi", "hi", 2,
               "abc", 'x', 'y');
  CHECK_FORMAT("%*d %-*d %.*f", 6, 1, 6, 2, 3, 3.14159);
  const double values[] = {0.0,          -0.0,         1.0,
                           -1.0,         0.5,          0.1,
                           1.5,          2.5,          0.125,
                           1e-5,         1e-4,         123456.0,
                           1234567.0,    9.9999996,    0.00001,
                           1e100,        1e-300,       5e-324,
                           DBL_MAX,      DBL_MIN,      1.8,
                           0.173,        100.0,        1e21,
                           1e22,         999999.5,     0.000099999995,
                           (double)0.1f, (double)1.8f, INFINITY,
                           -INFINITY,    NAN};
  for (size_t i = 0; i < sizeof values / sizeof values[0]; ++i) {
    double v = values[i];
    CHECK_FORMAT("%g %G %e %E %f %F", v, v, v, v, v, v);
    CHECK_FORMAT("%.0f %.1f %.2f %.0e %.3e %.1g %.9g %.17g %.0g", v, v, v, v, v, v, v, v, v);
    CHECK_FORMAT("[%12g] [%-12g] [%012g] [%+g] [% g] [%#.0f] [%#.0e]", v, v, v, v, v, v, v);
  }
  CHECK_FORMAT("%.60f %.40e %.300f", 0.1, 1.0 / 3.0, 5e-324);
  CHECK_FORMAT("%f %.17g", DBL_MAX, DBL_MAX);
  /* %#g keeps the trailing zeros (glibc drops them after a carry, 999999.5 -> "1.e+06":
   * C says "1.00000e+06") */
  CHECK_FORMAT("%#g %#g %#.3g", 1.5, 0.0001, 2.0);
  char alt[32];
  lb_snprintf(alt, sizeof alt, "%#g", 999999.5);
  LB_CHECK(strcmp(alt, "1.00000e+06") == 0);
  /* truncation: the return is the whole length, the buffer gets n - 1 characters */
  char small[8];
  int n = lb_snprintf(small, sizeof small, "%s-%d", "abcdef", 12345);
  LB_CHECK(n == 12 && strcmp(small, "abcdef-") == 0);
  LB_CHECK(lb_snprintf(NULL, 0, "%g", 1.5) == 3);
  /* lb_sscanf: the one pattern cJSON asks for */
  double d = 0.0;
  LB_CHECK(lb_sscanf("0.1", "%lg", &d) == 1 && d == 0.1);
  LB_CHECK(lb_sscanf("x", "%lg", &d) == 0 && lb_sscanf("1", "%d", &d) == 0);
}

static void test_format_random(void) {
  for (int i = 0; i < 100000; ++i) {
    uint64_t u = next_u64();
    double v = from_bits(
        i % 2 ? u : (u & 0x800fffffffffffffull) | ((uint64_t)(1023 + (int)(u % 80u) - 40) << 52));
    float f = (float)(i % 2 ? v : v * 1e-3);
    int p = (int)(next_u64() % 20u);
    CHECK_FORMAT("%g|%.9g|%.17g|%.*g|%.*e|%.*f", v, (double)f, v, p, v, p, v, p,
                 fabs(v) < 1e30 ? v : 1.0);
    if (g_fmt_fail > 20) {
      break;
    }
  }
}

int main(void) {
  LB_RUN(test_read_edges);
  LB_RUN(test_read_random);
  LB_RUN(test_format_edges);
  LB_RUN(test_format_random);
  LB_TEST_MAIN_END();
}
