/* Four float lanes: SSE2 natively, wasm_simd128 with -msimd128, else a portable struct.
 *
 * Only lane-wise IEEE operations (add, sub, mul, div, sqrt, compare, select, sign flip) and
 * lane moves: every lane does exactly what the scalar code does to one value, in the same
 * order, so the three paths give the same bits as each other and as the scalar jobs.
 * No reciprocal estimates, no fused multiply-add, no horizontal sums. LB_SIMD4_SCALAR forces
 * the portable path (tests compare it with the vector one). */
#ifndef LB_MATH_SIMD4_H
#define LB_MATH_SIMD4_H

#include <stdint.h>

#if !defined(LB_SIMD4_SCALAR) && defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define LB_SIMD4_WASM 1
#elif !defined(LB_SIMD4_SCALAR) && (defined(__SSE2__) || defined(_M_X64))
#include <emmintrin.h>
#define LB_SIMD4_SSE2 1
#endif

/* LB_F4_NOINLINE: a kernel's rare path kept out of line, so its code does not crowd the
 * kernel's registers (V8 spills around inlined cold code as much as around hot). */
#if defined(__GNUC__) || defined(__clang__)
#define LB_F4_INLINE static inline __attribute__((always_inline))
#define LB_F4_NOINLINE static __attribute__((noinline))
#else
#define LB_F4_INLINE static inline
#define LB_F4_NOINLINE static
#endif

#if defined(LB_SIMD4_WASM)
typedef v128_t lb_f4;
#define LB_SIMD4_NAME "wasm-simd128"
LB_F4_INLINE lb_f4 lb_f4_load(const float *p) {
  return wasm_v128_load(p);
}
LB_F4_INLINE void lb_f4_store(float *p, lb_f4 a) {
  wasm_v128_store(p, a);
}
LB_F4_INLINE lb_f4 lb_f4_set1(float x) {
  return wasm_f32x4_splat(x);
}
LB_F4_INLINE lb_f4 lb_f4_set(float x, float y, float z, float w) {
  return wasm_f32x4_make(x, y, z, w);
}
/* Lanes (a[i], a[j], a[k], a[l]); indices are constants. */
#define LB_F4_SHUFFLE(a, i, j, k, l) wasm_i32x4_shuffle((a), (a), i, j, k, l)
/* Bitwise xor: with a constant of -0.0f lanes, flips those lanes' signs (exact). */
LB_F4_INLINE lb_f4 lb_f4_xor(lb_f4 a, lb_f4 b) {
  return wasm_v128_xor(a, b);
}
/* Bitwise and (of masks) */
LB_F4_INLINE lb_f4 lb_f4_and(lb_f4 a, lb_f4 b) {
  return wasm_v128_and(a, b);
}
LB_F4_INLINE lb_f4 lb_f4_add(lb_f4 a, lb_f4 b) {
  return wasm_f32x4_add(a, b);
}
LB_F4_INLINE lb_f4 lb_f4_sub(lb_f4 a, lb_f4 b) {
  return wasm_f32x4_sub(a, b);
}
LB_F4_INLINE lb_f4 lb_f4_mul(lb_f4 a, lb_f4 b) {
  return wasm_f32x4_mul(a, b);
}
LB_F4_INLINE lb_f4 lb_f4_div(lb_f4 a, lb_f4 b) {
  return wasm_f32x4_div(a, b);
}
LB_F4_INLINE lb_f4 lb_f4_sqrt(lb_f4 a) {
  return wasm_f32x4_sqrt(a);
}
LB_F4_INLINE lb_f4 lb_f4_neg(lb_f4 a) {
  return wasm_f32x4_neg(a);
}
LB_F4_INLINE lb_f4 lb_f4_abs(lb_f4 a) {
  return wasm_f32x4_abs(a);
}
/* Masks: all bits set in a lane where the comparison holds (false for NaN). */
LB_F4_INLINE lb_f4 lb_f4_lt(lb_f4 a, lb_f4 b) {
  return wasm_f32x4_lt(a, b);
}
LB_F4_INLINE lb_f4 lb_f4_gt(lb_f4 a, lb_f4 b) {
  return wasm_f32x4_gt(a, b);
}
LB_F4_INLINE lb_f4 lb_f4_ge(lb_f4 a, lb_f4 b) {
  return wasm_f32x4_ge(a, b);
}
/* all ones where the lanes' bits are equal (so -0 differs from +0 and a NaN can match) */
LB_F4_INLINE lb_f4 lb_f4_same_bits(lb_f4 a, lb_f4 b) {
  return wasm_i32x4_eq(a, b);
}
/* mask ? a : b per lane */
LB_F4_INLINE lb_f4 lb_f4_select(lb_f4 mask, lb_f4 a, lb_f4 b) {
  return wasm_v128_bitselect(a, b, mask);
}
/* bit i set when lane i of the mask is set */
LB_F4_INLINE int lb_f4_mask_bits(lb_f4 mask) {
  return (int)wasm_i32x4_bitmask(mask);
}
LB_F4_INLINE void lb_f4_transpose(lb_f4 *a, lb_f4 *b, lb_f4 *c, lb_f4 *d) {
  v128_t t0 = wasm_i32x4_shuffle(*a, *b, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(*c, *d, 0, 4, 1, 5);
  v128_t t2 = wasm_i32x4_shuffle(*a, *b, 2, 6, 3, 7), t3 = wasm_i32x4_shuffle(*c, *d, 2, 6, 3, 7);
  *a = wasm_i64x2_shuffle(t0, t1, 0, 2);
  *b = wasm_i64x2_shuffle(t0, t1, 1, 3);
  *c = wasm_i64x2_shuffle(t2, t3, 0, 2);
  *d = wasm_i64x2_shuffle(t2, t3, 1, 3);
}
/* V8 builds a v128 constant afresh at every use, inside loops too (two to four x86 instructions
 * each, and the loop's spills besides). Hiding the value in a local is not enough (an empty asm
 * statement fooled LLVM, but Binaryen's link-time -O3 put the v128.const back into the loop);
 * a value V8 loads from memory is an ordinary value, kept in a register or, at worst, spilled
 * and reloaded in one instruction. Costs a stack store and load per hold: hold outside loops. */
#define LB_F4_HOLD(v)                                                                              \
  do {                                                                                             \
    volatile v128_t hold_ = (v);                                                                   \
    (v) = hold_;                                                                                   \
  } while (0)
#elif defined(LB_SIMD4_SSE2)
typedef __m128 lb_f4;
/* Compilers keep SSE constants in registers or load them: nothing to hold (see the wasm one). */
#define LB_F4_HOLD(v) ((void)0)
#define LB_SIMD4_NAME "sse2"
LB_F4_INLINE lb_f4 lb_f4_load(const float *p) {
  return _mm_loadu_ps(p);
}
LB_F4_INLINE void lb_f4_store(float *p, lb_f4 a) {
  _mm_storeu_ps(p, a);
}
LB_F4_INLINE lb_f4 lb_f4_set1(float x) {
  return _mm_set1_ps(x);
}
LB_F4_INLINE lb_f4 lb_f4_set(float x, float y, float z, float w) {
  return _mm_setr_ps(x, y, z, w);
}
#define LB_F4_SHUFFLE(a, i, j, k, l) _mm_shuffle_ps((a), (a), _MM_SHUFFLE(l, k, j, i))
LB_F4_INLINE lb_f4 lb_f4_xor(lb_f4 a, lb_f4 b) {
  return _mm_xor_ps(a, b);
}
LB_F4_INLINE lb_f4 lb_f4_and(lb_f4 a, lb_f4 b) {
  return _mm_and_ps(a, b);
}
LB_F4_INLINE lb_f4 lb_f4_add(lb_f4 a, lb_f4 b) {
  return _mm_add_ps(a, b);
}
LB_F4_INLINE lb_f4 lb_f4_sub(lb_f4 a, lb_f4 b) {
  return _mm_sub_ps(a, b);
}
LB_F4_INLINE lb_f4 lb_f4_mul(lb_f4 a, lb_f4 b) {
  return _mm_mul_ps(a, b);
}
LB_F4_INLINE lb_f4 lb_f4_div(lb_f4 a, lb_f4 b) {
  return _mm_div_ps(a, b);
}
LB_F4_INLINE lb_f4 lb_f4_sqrt(lb_f4 a) {
  return _mm_sqrt_ps(a);
}
LB_F4_INLINE lb_f4 lb_f4_neg(lb_f4 a) {
  return _mm_xor_ps(a, _mm_set1_ps(-0.0f));
}
LB_F4_INLINE lb_f4 lb_f4_abs(lb_f4 a) {
  return _mm_andnot_ps(_mm_set1_ps(-0.0f), a);
}
LB_F4_INLINE lb_f4 lb_f4_lt(lb_f4 a, lb_f4 b) {
  return _mm_cmplt_ps(a, b);
}
LB_F4_INLINE lb_f4 lb_f4_gt(lb_f4 a, lb_f4 b) {
  return _mm_cmpgt_ps(a, b);
}
LB_F4_INLINE lb_f4 lb_f4_ge(lb_f4 a, lb_f4 b) {
  return _mm_cmpge_ps(a, b);
}
LB_F4_INLINE lb_f4 lb_f4_same_bits(lb_f4 a, lb_f4 b) {
  return _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_castps_si128(a), _mm_castps_si128(b)));
}
LB_F4_INLINE lb_f4 lb_f4_select(lb_f4 mask, lb_f4 a, lb_f4 b) {
  return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b));
}
LB_F4_INLINE int lb_f4_mask_bits(lb_f4 mask) {
  return _mm_movemask_ps(mask);
}
LB_F4_INLINE void lb_f4_transpose(lb_f4 *a, lb_f4 *b, lb_f4 *c, lb_f4 *d) {
  __m128 t0 = _mm_unpacklo_ps(*a, *b), t1 = _mm_unpacklo_ps(*c, *d);
  __m128 t2 = _mm_unpackhi_ps(*a, *b), t3 = _mm_unpackhi_ps(*c, *d);
  *a = _mm_movelh_ps(t0, t1);
  *b = _mm_movehl_ps(t1, t0);
  *c = _mm_movelh_ps(t2, t3);
  *d = _mm_movehl_ps(t3, t2);
}
#else
typedef struct lb_f4 {
  float v[4];
} lb_f4;
#define LB_SIMD4_NAME "scalar"
#define LB_F4_HOLD(v) ((void)0)
#define LB_F4_MAP(expr)                                                                            \
  lb_f4 r_;                                                                                        \
  for (int i = 0; i < 4; ++i) {                                                                    \
    r_.v[i] = (expr);                                                                              \
  }                                                                                                \
  return r_
/* A mask lane is a float whose bits are all ones (NaN) or all zeros. */
LB_F4_INLINE float lb_f4_bits_(uint32_t u) {
  union {
    uint32_t u;
    float f;
  } x = {u};
  return x.f;
}
LB_F4_INLINE uint32_t lb_f4_u_(float f) {
  union {
    float f;
    uint32_t u;
  } x = {f};
  return x.u;
}
LB_F4_INLINE lb_f4 lb_f4_load(const float *p) {
  LB_F4_MAP(p[i]);
}
LB_F4_INLINE void lb_f4_store(float *p, lb_f4 a) {
  for (int i = 0; i < 4; ++i) {
    p[i] = a.v[i];
  }
}
LB_F4_INLINE lb_f4 lb_f4_set1(float x) {
  LB_F4_MAP(x);
}
LB_F4_INLINE lb_f4 lb_f4_set(float x, float y, float z, float w) {
  lb_f4 r = {{x, y, z, w}};
  return r;
}
LB_F4_INLINE lb_f4 lb_f4_shuffle_(lb_f4 a, int i, int j, int k, int l) {
  lb_f4 r = {{a.v[i], a.v[j], a.v[k], a.v[l]}};
  return r;
}
#define LB_F4_SHUFFLE(a, i, j, k, l) lb_f4_shuffle_((a), i, j, k, l)
LB_F4_INLINE lb_f4 lb_f4_add(lb_f4 a, lb_f4 b) {
  LB_F4_MAP(a.v[i] + b.v[i]);
}
LB_F4_INLINE lb_f4 lb_f4_sub(lb_f4 a, lb_f4 b) {
  LB_F4_MAP(a.v[i] - b.v[i]);
}
LB_F4_INLINE lb_f4 lb_f4_mul(lb_f4 a, lb_f4 b) {
  LB_F4_MAP(a.v[i] * b.v[i]);
}
LB_F4_INLINE lb_f4 lb_f4_div(lb_f4 a, lb_f4 b) {
  LB_F4_MAP(a.v[i] / b.v[i]);
}
#if defined(__GNUC__) || defined(__clang__)
LB_F4_INLINE lb_f4 lb_f4_sqrt(lb_f4 a) {
  LB_F4_MAP(__builtin_sqrtf(a.v[i]));
}
#else
float lb_sqrt(float x);
LB_F4_INLINE lb_f4 lb_f4_sqrt(lb_f4 a) {
  LB_F4_MAP(lb_sqrt(a.v[i]));
}
#endif
LB_F4_INLINE lb_f4 lb_f4_xor(lb_f4 a, lb_f4 b) {
  LB_F4_MAP(lb_f4_bits_(lb_f4_u_(a.v[i]) ^ lb_f4_u_(b.v[i])));
}
LB_F4_INLINE lb_f4 lb_f4_and(lb_f4 a, lb_f4 b) {
  LB_F4_MAP(lb_f4_bits_(lb_f4_u_(a.v[i]) & lb_f4_u_(b.v[i])));
}
LB_F4_INLINE lb_f4 lb_f4_neg(lb_f4 a) {
  LB_F4_MAP(lb_f4_bits_(lb_f4_u_(a.v[i]) ^ 0x80000000u));
}
LB_F4_INLINE lb_f4 lb_f4_abs(lb_f4 a) {
  LB_F4_MAP(lb_f4_bits_(lb_f4_u_(a.v[i]) & 0x7fffffffu));
}
LB_F4_INLINE lb_f4 lb_f4_lt(lb_f4 a, lb_f4 b) {
  LB_F4_MAP(lb_f4_bits_(a.v[i] < b.v[i] ? 0xffffffffu : 0u));
}
LB_F4_INLINE lb_f4 lb_f4_gt(lb_f4 a, lb_f4 b) {
  LB_F4_MAP(lb_f4_bits_(a.v[i] > b.v[i] ? 0xffffffffu : 0u));
}
LB_F4_INLINE lb_f4 lb_f4_ge(lb_f4 a, lb_f4 b) {
  LB_F4_MAP(lb_f4_bits_(a.v[i] >= b.v[i] ? 0xffffffffu : 0u));
}
LB_F4_INLINE lb_f4 lb_f4_same_bits(lb_f4 a, lb_f4 b) {
  LB_F4_MAP(lb_f4_bits_(lb_f4_u_(a.v[i]) == lb_f4_u_(b.v[i]) ? 0xffffffffu : 0u));
}
LB_F4_INLINE lb_f4 lb_f4_select(lb_f4 mask, lb_f4 a, lb_f4 b) {
  LB_F4_MAP(lb_f4_u_(mask.v[i]) ? a.v[i] : b.v[i]);
}
LB_F4_INLINE int lb_f4_mask_bits(lb_f4 mask) {
  int bits = 0;
  for (int i = 0; i < 4; ++i) {
    bits |= lb_f4_u_(mask.v[i]) ? 1 << i : 0;
  }
  return bits;
}
LB_F4_INLINE void lb_f4_transpose(lb_f4 *a, lb_f4 *b, lb_f4 *c, lb_f4 *d) {
  lb_f4 *rows[4] = {a, b, c, d};
  float m[4][4];
  for (int r = 0; r < 4; ++r) {
    for (int k = 0; k < 4; ++k) {
      m[k][r] = rows[r]->v[k];
    }
  }
  for (int r = 0; r < 4; ++r) {
    for (int k = 0; k < 4; ++k) {
      rows[r]->v[k] = m[r][k];
    }
  }
}
#undef LB_F4_MAP
#endif

/* ---- shared helpers over the operations above ------------------------------------------- */

/* (v[0], v[1], v[2], 0): a vec3 as lanes, never reading past it. */
LB_F4_INLINE lb_f4 lb_f4_load3(const float *v) {
  return lb_f4_set(v[0], v[1], v[2], 0.0f);
}

/* acc + v * 0 per lane, for finiteness checks: Inf * 0 and NaN * 0 are NaN, finite * 0 is
 * +-0, so a lane turns NaN once any value it summed is not finite and stays +-0 otherwise,
 * in whatever order the values come. lb_f4_zero_terms_failed tells at the end. */
LB_F4_INLINE lb_f4 lb_f4_zero_terms(lb_f4 acc, lb_f4 v) {
  return lb_f4_add(acc, lb_f4_mul(v, lb_f4_set1(0.0f)));
}

/* Whether some lane of a sum of lb_f4_zero_terms is not zero (NaN). */
LB_F4_INLINE int lb_f4_zero_terms_failed(lb_f4 acc) {
  float v[4];
  lb_f4_store(v, acc);
  return (v[0] + v[1] + v[2] + v[3]) != 0.0f;
}

#endif
