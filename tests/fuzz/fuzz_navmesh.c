/* libFuzzer target: navmesh JSON (limber/nav.h). Any input is added or refused with a message
 * and leaves no mesh; an added mesh answers every query (nearest, path, move along the
 * surface, raycast) from points spread over its bounds with points on the mesh, finite
 * lengths and a path that starts and ends where it says. Mismatches trap. */
#include "limber/limber.h"
#include <stdint.h>
#include <string.h>

static int finite3(const float *p) {
  return lb_is_finite(p[0]) && lb_is_finite(p[1]) && lb_is_finite(p[2]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  lb_world *w = NULL;
  if (lb_world_create(NULL, &w) != LB_OK) {
    return 0;
  }
  uint32_t mesh = 0;
  lb_result r = lb_world_add_navmesh_json(w, "fuzz", (const char *)data, size, &mesh);
  if (r != LB_OK) {
    if (lb_world_last_error(w)[0] == '\0' || mesh != 0 || lb_world_navmesh_find(w, "fuzz") != 0) {
      __builtin_trap(); /* a refusal says why and keeps nothing */
    }
    lb_world_destroy(w);
    return 0;
  }
  lb_navmesh_info info;
  if (lb_world_navmesh_info(w, mesh, &info) != LB_OK) {
    __builtin_trap();
  }
  float pts[3 * 16];
  for (int i = 0; i < 9; ++i) {
    float fx = (float)(i % 3) * 0.5f, fz = (float)(i / 3) * 0.5f;
    float a[3] = {info.bounds_min[0] + (info.bounds_max[0] - info.bounds_min[0]) * fx,
                  info.bounds_max[1],
                  info.bounds_min[2] + (info.bounds_max[2] - info.bounds_min[2]) * fz};
    float b[3] = {info.bounds_max[0] - (info.bounds_max[0] - info.bounds_min[0]) * fz, a[1],
                  info.bounds_max[2] - (info.bounds_max[2] - info.bounds_min[2]) * fx};
    lb_nav_point p, q;
    if (lb_nav_nearest(w, mesh, a, &p) != LB_OK || p.polygon >= info.polygon_count ||
        !finite3(p.position)) {
      __builtin_trap();
    }
    lb_nav_path path = {.points = pts, .point_capacity = 16};
    if (lb_nav_find_path(w, mesh, a, b, &path) != LB_OK || path.corner_count < 1 ||
        !lb_is_finite(path.length) || path.length < 0.0f ||
        memcmp(pts, path.start.position, sizeof path.start.position) != 0) {
      __builtin_trap();
    }
    if (lb_nav_move_along_surface(w, mesh, &p, b, &q) != LB_OK || q.polygon >= info.polygon_count ||
        !finite3(q.position)) {
      __builtin_trap();
    }
    lb_nav_hit hit;
    if (lb_nav_raycast(w, mesh, &p, b, &hit) != LB_OK || !(hit.t >= 0.0f && hit.t <= 1.0f) ||
        hit.polygon >= info.polygon_count) {
      __builtin_trap();
    }
  }
  lb_world_destroy(w);
  return 0;
}
