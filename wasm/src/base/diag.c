#include "diag.h"
#include "alloc.h"
#include "format.h"
#include <string.h>

void lb_diag_init(lb_diag *d, const lb_allocator *a) {
  memset(d, 0, sizeof *d);
  d->allocator = *a;
}

void lb_diag_release(lb_diag *d) {
  lb_mem_free(&d->allocator, d->text);
  d->text = NULL;
  d->capacity = 0;
}

void lb_diag_clear(lb_diag *d) {
  d->code = LB_OK;
  if (d->text) {
    d->text[0] = 0;
  }
  d->fallback[0] = 0;
}

const char *lb_diag_text(const lb_diag *d) {
  return d->text && d->text[0] ? d->text : d->fallback;
}

lb_result lb_diag_vset(lb_diag *d, lb_result code, const char *fmt, va_list ap) {
  const char *name = lb_result_name(code);
  va_list copy;
  va_copy(copy, ap);
  int body = lb_vsnprintf(NULL, 0, fmt, copy);
  va_end(copy);
  size_t need = strlen(name) + 2u + (body > 0 ? (size_t)body : 0u) + 1u;
  d->code = code;
  if (need > d->capacity) {
    char *grown = lb_mem_alloc(&d->allocator, need);
    if (grown) {
      lb_mem_free(&d->allocator, d->text);
      d->text = grown;
      d->capacity = need;
    }
  }
  /* Out of memory for the text: keep what fits in the fixed buffer rather than nothing. */
  char *out = need <= d->capacity ? d->text : d->fallback;
  size_t cap = need <= d->capacity ? d->capacity : sizeof d->fallback;
  if (out == d->fallback && d->text) {
    d->text[0] = 0;
  }
  int n = lb_snprintf(out, cap, "%s: ", name);
  if (n > 0 && (size_t)n < cap) {
    lb_vsnprintf(out + n, cap - (size_t)n, fmt, ap);
  }
  return code;
}

lb_result lb_diag_set(lb_diag *d, lb_result code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  lb_result r = lb_diag_vset(d, code, fmt, ap);
  va_end(ap);
  return r;
}

lb_result lb_diag_prefix(lb_diag *d, lb_result code, const char *prefix) {
  const char *text = lb_diag_text(d);
  const char *body = strstr(text, ": ");
  body = body ? body + 2 : text;
  size_t n = strlen(body) + 1u;
  char *copy = lb_mem_alloc(&d->allocator, n);
  if (!copy) {
    return lb_diag_set(d, code, "%s(message lost: out of memory)", prefix);
  }
  memcpy(copy, body, n);
  lb_diag_set(d, code, "%s%s", prefix, copy);
  lb_mem_free(&d->allocator, copy);
  return code;
}
