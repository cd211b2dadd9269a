/* Vault exports (vault.h): requests and the last probe's casts. Every check lives in the core. */
#include "limber/limber.h"

#include "exports.h"

LBW_EXPORT(lbw_vault_request)
int lbw_vault_request(lb_world *w, lb_entity e) {
  return lb_world_vault_request(w, e);
}

/* out: up to cap casts of 10 floats each (origin xyz, dir xyz, radius, length, hit, 0);
 * *count: how many the probe made. */
LBW_EXPORT(lbw_vault_casts)
int lbw_vault_casts(lb_world *w, lb_entity e, float *out, uint32_t cap, uint32_t *count) {
  lb_vault_cast casts[LB_VAULT_MAX_CASTS];
  uint32_t n = 0;
  lb_result r = lb_world_vault_casts(w, e, casts, LB_VAULT_MAX_CASTS, &n);
  if (r != LB_OK) {
    return r;
  }
  if (!count || (cap > 0 && !out)) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  uint32_t k = n < cap ? n : cap;
  for (uint32_t i = 0; i < k; ++i) {
    float *o = out + i * 10;
    for (int j = 0; j < 3; ++j) {
      o[j] = casts[i].origin[j];
      o[3 + j] = casts[i].dir[j];
    }
    o[6] = casts[i].radius;
    o[7] = casts[i].length;
    o[8] = casts[i].hit;
    o[9] = 0.0f;
  }
  *count = n;
  return LB_OK;
}
