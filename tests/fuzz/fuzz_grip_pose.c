/* libFuzzer target: grip pose JSON. Any input gives LB_OK or an error with a message;
 * a parsed pose written back and parsed again must be bit-identical, and its by-joint
 * form must write and parse back too. Mismatches trap so libFuzzer reports them. */
#include "limber/grip_pose.h"
#include <stdint.h>
#include <string.h>

static void round_trip(const lb_grip_pose_def *d) {
  static char buf[4096];
  size_t len = 0;
  if (lb_grip_pose_write_json(d, buf, sizeof buf, &len) != LB_OK || len != strlen(buf)) {
    __builtin_trap();
  }
  lb_grip_pose_def back = lb_grip_pose_default_def();
  if (lb_grip_pose_parse_json(buf, len, &back, NULL, 0) != LB_OK || !lb_grip_pose_equal(d, &back)) {
    __builtin_trap();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  lb_grip_pose_def d = lb_grip_pose_default_def(), keep = d;
  char err[128];
  err[0] = '\0';
  lb_result r = lb_grip_pose_parse_json((const char *)data, size, &d, err, sizeof err);
  if (r != LB_OK) {
    if (err[0] == '\0' || !lb_grip_pose_equal(&d, &keep)) {
      __builtin_trap(); /* a failure must say why and leave the output alone */
    }
    return 0;
  }
  round_trip(&d);
  lb_grip_pose_def bj;
  if (lb_grip_pose_by_joint(&d, &bj) != LB_OK) {
    __builtin_trap();
  }
  round_trip(&bj);
  return 0;
}
