/* Ray primitives the casts are built from (Ericson, Real-Time Collision Detection, 5.3):
 * a sphere, a capsule, and a polygon (triangle or parallelogram) grown by a radius. A cast
 * of a sphere or capsule against a shape is a ray against their Minkowski sum, which these
 * cover exactly. Directions are unit; -1 is a miss; a start inside gives 0. */
#include "collide_internal.h"

/* Roots are formed without cancellation: the discriminant from the ray's closest approach
 * (radius^2 - |perpendicular offset|^2) instead of b^2 - c, which loses the digits of a
 * start far from the shape; the near root as c / (-b + sqrt(disc)) with
 * c = (|m| - r)(|m| + r). */
float cl_ray_sphere(const float *o, const float *d, const float *c, float r) {
  float m[3], perp[3];
  lb_vec3_sub(o, c, m);
  float ml = cl_sqrt(lb_vec3_dot(m, m));
  if (ml <= r) {
    return 0.0f;
  }
  float b = lb_vec3_dot(m, d);
  if (b >= 0.0f) {
    return -1.0f;
  }
  lb_vec3_mad(m, d, -b, perp);
  float h2 = r * r - lb_vec3_dot(perp, perp);
  if (h2 < 0.0f) {
    return -1.0f;
  }
  return (ml - r) * (ml + r) / (-b + cl_sqrt(h2));
}

float cl_ray_circle(const float *mp, const float *dp, float r) {
  float qa = lb_vec3_dot(dp, dp), qb = lb_vec3_dot(mp, dp);
  if (!(qa > 0.0f) || qb >= 0.0f) {
    return -1.0f;
  }
  float ml = cl_sqrt(lb_vec3_dot(mp, mp));
  if (ml <= r) {
    return -1.0f; /* inside the infinite cylinder: its side is not where the ray enters */
  }
  float perp[3];
  lb_vec3_mad(mp, dp, -qb / qa, perp);
  float h2 = r * r - lb_vec3_dot(perp, perp);
  if (h2 < 0.0f) {
    return -1.0f;
  }
  return (ml - r) * (ml + r) / (-qb + cl_sqrt(qa * h2));
}

float cl_ray_cylinder_side(const float *o, const float *d, const float *a, const float *ab,
                           float r) {
  float m[3], mp[3], dp[3];
  float l2 = lb_vec3_dot(ab, ab);
  lb_vec3_sub(o, a, m);
  float md = lb_vec3_dot(m, ab), nd = lb_vec3_dot(d, ab);
  lb_vec3_mad(m, ab, -md / l2, mp);
  lb_vec3_mad(d, ab, -nd / l2, dp);
  float t = cl_ray_circle(mp, dp, r);
  if (t >= 0.0f) {
    float s = (md + t * nd) / l2;
    if (s >= 0.0f && s <= 1.0f) {
      return t;
    }
  }
  return -1.0f;
}

static float cl_take(float best, float t) {
  return t >= 0.0f && (best < 0.0f || t < best) ? t : best;
}

float cl_ray_capsule(const float *o, const float *d, const float *a, const float *b, float r) {
  float ab[3], m[3];
  lb_vec3_sub(b, a, ab);
  float l2 = lb_vec3_dot(ab, ab);
  if (l2 == 0.0f) {
    return cl_ray_sphere(o, d, a, r);
  }
  lb_vec3_sub(o, a, m);
  float s0 = cl_clampf(lb_vec3_dot(m, ab) / l2, 0.0f, 1.0f);
  float c0[3], w0[3];
  lb_vec3_mad(a, ab, s0, c0);
  lb_vec3_sub(o, c0, w0);
  if (lb_vec3_dot(w0, w0) <= r * r) {
    return 0.0f;
  }
  float best = cl_ray_cylinder_side(o, d, a, ab, r);
  best = cl_take(best, cl_ray_sphere(o, d, a, r));
  return cl_take(best, cl_ray_sphere(o, d, b, r));
}

float cl_ray_polygon_face(const float *o, const float *d, const float *corner, const float *e1,
                          const float *e2, bool triangle, float r) {
  float n[3];
  lb_vec3_cross(e1, e2, n);
  float nn2 = lb_vec3_dot(n, n);
  float scale2 = lb_vec3_dot(e1, e1) * lb_vec3_dot(e2, e2);
  if (!(nn2 > scale2 * 1e-12f && nn2 > 0.0f)) {
    return -1.0f;
  }
  float nn = cl_sqrt(nn2);
  float un[3];
  lb_vec3_scale(n, 1.0f / nn, un);
  float w[3];
  lb_vec3_sub(o, corner, w);
  float h = lb_vec3_dot(w, un), dn = lb_vec3_dot(d, un);
  /* Only from outside the slab |h| <= r, moving toward it, can the face come first. */
  if (!((h > r && dn < 0.0f) || (h < -r && dn > 0.0f))) {
    return -1.0f;
  }
  float side = h > 0.0f ? r : -r;
  float t = (side - h) / dn;
  float x[3], c1[3], c2[3];
  lb_vec3_mad(w, d, t, x);
  lb_vec3_cross(x, e2, c1);
  lb_vec3_cross(e1, x, c2);
  float u = lb_vec3_dot(c1, un) / nn, v = lb_vec3_dot(c2, un) / nn;
  bool in = triangle ? (u >= 0.0f && v >= 0.0f && u + v <= 1.0f)
                     : (u >= 0.0f && v >= 0.0f && u <= 1.0f && v <= 1.0f);
  return in ? t : -1.0f;
}

float cl_ray_rounded_polygon(const float *o, const float *d, const float *corner, const float *e1,
                             const float *e2, bool triangle, float r) {
  float best = cl_ray_polygon_face(o, d, corner, e1, e2, triangle, r);
  float p1[3], p2[3], p3[3];
  lb_vec3_add(corner, e1, p1);
  lb_vec3_add(corner, e2, p2);
  best = cl_take(best, cl_ray_capsule(o, d, corner, p1, r));
  best = cl_take(best, cl_ray_capsule(o, d, corner, p2, r));
  if (triangle) {
    best = cl_take(best, cl_ray_capsule(o, d, p1, p2, r));
  } else {
    lb_vec3_add(p1, e2, p3);
    best = cl_take(best, cl_ray_capsule(o, d, p1, p3, r));
    best = cl_take(best, cl_ray_capsule(o, d, p2, p3, r));
  }
  return best;
}
