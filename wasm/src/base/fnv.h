/* FNV-1a 64 helpers over bytes and IEEE bit patterns: the bone hash and change keys. */
#ifndef LIMBER_BASE_FNV_H
#define LIMBER_BASE_FNV_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define LB_FNV_OFFSET 0xcbf29ce484222325ull

static inline uint64_t lb_fnv_bytes(uint64_t h, const void *data, size_t n) {
  const uint8_t *p = (const uint8_t *)data;
  for (size_t i = 0; i < n; ++i) {
    h = (h ^ p[i]) * 0x100000001b3ull;
  }
  return h;
}

/* Little-endian byte order whatever the host, so hashes agree across targets. */
static inline uint64_t lb_fnv_u32(uint64_t h, uint32_t v) {
  for (int i = 0; i < 4; ++i) {
    h ^= (v >> (8 * i)) & 0xFFu;
    h *= 0x100000001b3ull;
  }
  return h;
}

static inline uint64_t lb_fnv_f32(uint64_t h, float f) {
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  return lb_fnv_u32(h, bits);
}

#endif
