/* Anchors: where a palm goes, read from the object's current place, mirrored for the
 * other hand. */
#include "grip_internal.h"
#include <string.h>

/* Reflecting a palm frame through the object's plane gives a left-handed frame; turning
 * its X (the thumb side, which is -X for a right palm and +X for a left one) back makes it
 * the other hand's palm. As rotations: r' = M r M * (M D), where M reflects the object's
 * axis and D the palm's X. M r M negates the quaternion's two components off the axis;
 * M D is identity (X), 180 deg about Z (Y) or 180 deg about Y (Z). */
static void lb_mirror_rotation(const versor r, uint32_t axis, versor out) {
  versor m = {-r[0], -r[1], -r[2], r[3]};
  m[axis] = r[axis];
  versor md = {0.0f, 0.0f, 0.0f, 1.0f};
  if (axis == 1) {
    md[2] = 1.0f;
    md[3] = 0.0f;
  } else if (axis == 2) {
    md[1] = 1.0f;
    md[3] = 0.0f;
  }
  lb_quat_mul(m, md, out);
  lb_quat_normalize(out);
}

void lb_grip_anchor_world(const lb_world *w, uint32_t object_slot, lb_entity anchor, bool mirror,
                          uint32_t mirror_axis, lb_transform *out) {
  int as = lb_slot_of(w, anchor);
  const lb_transform *obj = &w->world_xf[object_slot];
  if (as < 0) {
    *out = *obj; /* a missing anchor means the object's own origin */
  } else {
    *out = w->world_xf[as];
  }
  if (mirror) {
    lb_transform rel;
    lb_transform_inverse_mul(obj, out, &rel);
    rel.t[mirror_axis] = -rel.t[mirror_axis];
    versor r;
    lb_mirror_rotation(rel.r, mirror_axis, r);
    memcpy(rel.r, r, sizeof r);
    lb_transform_mul(obj, &rel, out);
  }
  out->s[0] = out->s[1] = out->s[2] = 1.0f;
}
