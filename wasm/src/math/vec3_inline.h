/* The core's one set of three-float vector helpers, inline (every module's hot loops use
 * them). Each is cglm's plain-C glm_vec3_* (cglm/vec3.h, the project's vector library):
 * element by element, the same IEEE operations in the same order natively and in wasm under
 * -ffp-contract=off (cglm's SSE paths are in its vec4 and matrix code only, which the core
 * does not use). cglm 0.8 takes non-const vec3, so inputs pass through a cast; none of these
 * writes its inputs, and every output may alias an input. Length and normalisation keep
 * their zero-length policy in limber/math.h (lb_vec3_length, lb_vec3_normalize_to). */
#ifndef LIMBER_MATH_VEC3_INLINE_H
#define LIMBER_MATH_VEC3_INLINE_H

#include <cglm/vec3.h>

static inline float lb_vec3_dot(const float *a, const float *b) {
  return glm_vec3_dot((float *)a, (float *)b);
}
/* o = a - b */
static inline void lb_vec3_sub(const float *a, const float *b, float *o) {
  glm_vec3_sub((float *)a, (float *)b, o);
}
/* o = a + b */
static inline void lb_vec3_add(const float *a, const float *b, float *o) {
  glm_vec3_add((float *)a, (float *)b, o);
}
/* o = a s */
static inline void lb_vec3_scale(const float *a, float s, float *o) {
  glm_vec3_scale((float *)a, s, o);
}
/* o = a + b s (b s first, as glm_vec3_muladds adds it) */
static inline void lb_vec3_mad(const float *a, const float *b, float s, float *o) {
  vec3 t;
  glm_vec3_scale((float *)b, s, t);
  glm_vec3_add((float *)a, t, o);
}
/* o = a x b */
static inline void lb_vec3_cross(const float *a, const float *b, float *o) {
  glm_vec3_cross((float *)a, (float *)b, o);
}
static inline void lb_vec3_copy(const float *a, float *o) {
  glm_vec3_copy((float *)a, o);
}

#endif
