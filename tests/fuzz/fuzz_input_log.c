/* libFuzzer target: the fuzzed bytes as the ops of an input log (limber/input_log.h) replayed
 * into a new world (the log's start is a new world's). Invariants: no crash, leak or UB; a
 * refused log says why, naming itself ("NAME: input log: ..."). Seeds:
 * tests/fuzz/corpus/input_log. */
#include "limber/limber.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char HEAD[] = "{\"format\":\"limber-input-log\",\"version\":1,\"start\":{\"steps\":0,"
                           "\"hash\":\"cbf29ce484222325\"},\"ops\":[";

/* A step budget per input: one op may ask for 2^32 - 1 steps, a legal log the fuzzer finds
 * quickly and that would only measure the step's speed. */
static bool fuzz_step_budget(lb_world *w, uint64_t step, void *user) {
  (void)w;
  (void)user;
  return step < 200;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > (1u << 16)) {
    return 0;
  }
  size_t n = sizeof HEAD - 1;
  char *log = malloc(n + size + 3);
  if (!log) {
    return 0;
  }
  memcpy(log, HEAD, n);
  memcpy(log + n, data, size);
  memcpy(log + n + size, "]}", 3);
  lb_world *w = NULL;
  if (lb_world_create(NULL, &w) != LB_OK) {
    abort();
  }
  lb_result r = lb_input_log_replay(w, NULL, 0, log, n + size + 2, fuzz_step_budget, NULL);
  if (r != LB_OK) {
    const char *msg = lb_world_last_error(w);
    if (strncmp(msg, lb_result_name(r), strlen(lb_result_name(r))) != 0 ||
        !strstr(msg, "input log")) {
      fprintf(stderr, "a refusal without its reason: %s\n", msg);
      abort();
    }
  }
  lb_world_destroy(w);
  free(log);
  return 0;
}
