/* TRS transforms. Scale composes per axis without shear, the usual game-engine
 * approximation; rigs in practice carry uniform scale. */
#include "limber/math.h"
#include "math_inline.h"

void lb_transform_identity(lb_transform *out) {
  out->t[0] = out->t[1] = out->t[2] = 0.0f;
  lb_quat_identity(out->r);
  out->s[0] = out->s[1] = out->s[2] = 1.0f;
}

void lb_transform_mul(const lb_transform *parent, const lb_transform *local, lb_transform *out) {
  lb_xf_mul_r(parent, local, local->r, out);
}

void lb_transform_inverse_mul(const lb_transform *parent, const lb_transform *model,
                              lb_transform *out) {
  versor inv;
  lb_quat_conj(parent->r, inv);
  vec3 d = {model->t[0] - parent->t[0], model->t[1] - parent->t[1], model->t[2] - parent->t[2]};
  vec3 lt;
  lb_quat_rotate(inv, d, lt);
  versor r;
  lb_quat_mul(inv, model->r, r);
  for (int i = 0; i < 3; ++i) {
    float ps = parent->s[i] != 0.0f ? parent->s[i] : 1.0f;
    out->t[i] = lt[i] / ps;
    out->s[i] = model->s[i] / ps;
  }
  for (int i = 0; i < 4; ++i) {
    out->r[i] = r[i];
  }
}

bool lb_transform_valid(const lb_transform *xf) {
  bool ok = true;
  for (int a = 0; a < 3; ++a) {
    ok = ok && lb_is_finite(xf->t[a]) && lb_is_finite(xf->s[a]);
  }
  for (int a = 0; a < 4; ++a) {
    ok = ok && lb_is_finite(xf->r[a]);
  }
  float n2 = xf->r[0] * xf->r[0] + xf->r[1] * xf->r[1] + xf->r[2] * xf->r[2] + xf->r[3] * xf->r[3];
  return ok && n2 > 1e-12f;
}

void lb_transform_point(const lb_transform *xf, const vec3 p, vec3 out) {
  lb_xf_point(xf, p, out);
}

void lb_transform_to_mat4(const lb_transform *xf, mat4 out) {
  lb_xf_matrix(xf, &out[0][0]);
}
