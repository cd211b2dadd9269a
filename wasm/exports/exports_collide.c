/* WebAssembly exports for collision queries (collide.h) and character controllers
 * (controller.h). A hit is written as 9 words: entity, distance, point xyz, normal xyz,
 * triangle (int32). Thin wrappers: every check lives in the core. */
#include "limber/limber.h"
#include <string.h>

#define LBW_EXPORT(name) __attribute__((export_name(#name)))

static lb_collide_filter filter_of(uint32_t layers, lb_entity exclude) {
  lb_collide_filter f = lb_collide_default_filter();
  f.layers = layers;
  f.exclude = exclude;
  return f;
}

static void put_hit(const lb_collide_hit *h, float *out) {
  uint32_t e = h->entity;
  memcpy(&out[0], &e, 4);
  out[1] = h->distance;
  memcpy(&out[2], h->point, 12);
  memcpy(&out[5], h->normal, 12);
  int32_t t = h->triangle;
  memcpy(&out[8], &t, 4);
}

LBW_EXPORT(lbw_closest_point)
int lbw_closest_point(lb_world *w, const float *p, float maxd, uint32_t layers, lb_entity exclude,
                      float *out) {
  lb_collide_filter f = filter_of(layers, exclude);
  lb_collide_hit h;
  lb_result r = lb_world_closest_point(w, p, maxd, &f, &h);
  if (r == LB_OK) {
    put_hit(&h, out);
  }
  return r;
}

LBW_EXPORT(lbw_raycast)
int lbw_raycast(lb_world *w, const float *o, const float *d, float maxd, uint32_t layers,
                lb_entity exclude, float *out) {
  lb_collide_filter f = filter_of(layers, exclude);
  lb_collide_hit h;
  lb_result r = lb_world_raycast(w, o, d, maxd, &f, &h);
  if (r == LB_OK) {
    put_hit(&h, out);
  }
  return r;
}

LBW_EXPORT(lbw_sphere_cast)
int lbw_sphere_cast(lb_world *w, const float *c, float radius, const float *d, float maxd,
                    uint32_t layers, lb_entity exclude, float *out) {
  lb_collide_filter f = filter_of(layers, exclude);
  lb_collide_hit h;
  lb_result r = lb_world_sphere_cast(w, c, radius, d, maxd, &f, &h);
  if (r == LB_OK) {
    put_hit(&h, out);
  }
  return r;
}

LBW_EXPORT(lbw_capsule_cast)
int lbw_capsule_cast(lb_world *w, const float *a, const float *b, float radius, const float *d,
                     float maxd, uint32_t layers, lb_entity exclude, float *out) {
  lb_collide_filter f = filter_of(layers, exclude);
  lb_collide_hit h;
  lb_result r = lb_world_capsule_cast(w, a, b, radius, d, maxd, &f, &h);
  if (r == LB_OK) {
    put_hit(&h, out);
  }
  return r;
}

LBW_EXPORT(lbw_overlap_sphere)
int lbw_overlap_sphere(lb_world *w, const float *c, float radius, uint32_t layers,
                       lb_entity exclude, lb_entity *out, uint32_t cap, uint32_t *count) {
  lb_collide_filter f = filter_of(layers, exclude);
  return lb_world_overlap_sphere(w, c, radius, &f, out, cap, count);
}

LBW_EXPORT(lbw_overlap_capsule)
int lbw_overlap_capsule(lb_world *w, const float *a, const float *b, float radius, uint32_t layers,
                        lb_entity exclude, lb_entity *out, uint32_t cap, uint32_t *count) {
  lb_collide_filter f = filter_of(layers, exclude);
  return lb_world_overlap_capsule(w, a, b, radius, &f, out, cap, count);
}

LBW_EXPORT(lbw_overlap_box)
int lbw_overlap_box(lb_world *w, const float *c, const float *q, const float *half, uint32_t layers,
                    lb_entity exclude, lb_entity *out, uint32_t cap, uint32_t *count) {
  lb_collide_filter f = filter_of(layers, exclude);
  return lb_world_overlap_box(w, c, q, half, &f, out, cap, count);
}

LBW_EXPORT(lbw_controller_move)
int lbw_controller_move(lb_world *w, lb_entity e, const float *delta) {
  return lb_world_controller_move(w, e, delta);
}
