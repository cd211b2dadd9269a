#include "array.h"
#include "alloc.h"
#include <string.h>

lb_result lb_array_reserve(const lb_allocator *a, void **data, uint32_t *cap, uint32_t used,
                           uint32_t need, size_t size, uint32_t first) {
  if (need <= *cap) {
    return LB_OK;
  }
  uint32_t n = *cap ? *cap : (first ? first : 1u);
  while (n < need) {
    if (n > UINT32_MAX / 2u) {
      n = need;
      break;
    }
    n *= 2u;
  }
  void *grown = lb_mem_alloc_array(a, n, size);
  if (!grown) {
    return LB_ERR_OUT_OF_MEMORY;
  }
  if (used) {
    memcpy(grown, *data, (size_t)used * size);
  }
  lb_mem_free(a, *data);
  *data = grown;
  *cap = n;
  return LB_OK;
}
