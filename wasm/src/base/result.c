#include "limber/base.h"

static const char *const lb_result_names[] = {
#define LB_RESULT_NAME_(name, text) #name,
    LB_RESULT_TABLE(LB_RESULT_NAME_)
#undef LB_RESULT_NAME_
};

static const char *const lb_result_texts[] = {
#define LB_RESULT_TEXT_(name, text) text,
    LB_RESULT_TABLE(LB_RESULT_TEXT_)
#undef LB_RESULT_TEXT_
};

const char *lb_result_name(lb_result r) {
  return (unsigned)r < LB_RESULT_COUNT ? lb_result_names[r] : "LB_UNKNOWN_RESULT";
}

const char *lb_result_text(lb_result r) {
  return (unsigned)r < LB_RESULT_COUNT ? lb_result_texts[r] : "unknown result";
}
