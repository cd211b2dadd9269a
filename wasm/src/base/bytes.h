/* Byte comparison for the per-step paths. */
#ifndef LIMBER_BASE_BYTES_H
#define LIMBER_BASE_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* memcmp(a, b, n) == 0, eight bytes at a time. The wasm build's libc memcmp walks byte by
 * byte behind a call, and neither compiler expands it inline for wasm; the animation blend asks
 * "do these layers agree bit for bit" for every joint and every step. Per-step code uses this;
 * code run once per call of the API keeps memcmp. */
static inline bool lb_same_bytes(const void *a, const void *b, size_t n) {
  const unsigned char *p = a, *q = b;
  uint64_t diff = 0u;
  size_t i = 0;
  for (; i + 8u <= n; i += 8u) {
    uint64_t x, y;
    memcpy(&x, p + i, sizeof x);
    memcpy(&y, q + i, sizeof y);
    diff |= x ^ y;
  }
  if (i + 4u <= n) {
    uint32_t x, y;
    memcpy(&x, p + i, sizeof x);
    memcpy(&y, q + i, sizeof y);
    diff |= x ^ y;
    i += 4u;
  }
  for (; i < n; ++i) {
    diff |= (uint64_t)(p[i] ^ q[i]);
  }
  return diff == 0u;
}

#endif
