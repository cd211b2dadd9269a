/* One diagnostics channel for the world, the parsers and the jobs: a result code, the
 * path of the field at fault ("GripHolder.held", "states[2].blend.points[0].value") and
 * a readable text. The text grows as needed: a message is never cut short. */
#ifndef LIMBER_BASE_DIAG_H
#define LIMBER_BASE_DIAG_H

#include "limber/base.h"
#include <stdarg.h>

typedef struct lb_diag {
  lb_allocator allocator;
  lb_result code;
  char *text;         /* "" when empty; owned */
  size_t capacity;    /* bytes of text */
  char fallback[128]; /* used when allocation fails, so a message always exists */
} lb_diag;

void lb_diag_init(lb_diag *d, const lb_allocator *a);
void lb_diag_release(lb_diag *d);
/* Records "NAME: <formatted>" and returns `code`. */
lb_result lb_diag_set(lb_diag *d, lb_result code, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
lb_result lb_diag_vset(lb_diag *d, lb_result code, const char *fmt, va_list ap);
void lb_diag_clear(lb_diag *d);
/* Re-records the current message as "NAME: <prefix><message without its NAME: >". */
lb_result lb_diag_prefix(lb_diag *d, lb_result code, const char *prefix);
const char *lb_diag_text(const lb_diag *d);

#endif
