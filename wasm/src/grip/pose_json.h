/* The grip pose JSON parser with the world's diagnostics channel (messages never cut). */
#ifndef LIMBER_GRIP_POSE_JSON_H
#define LIMBER_GRIP_POSE_JSON_H

#include "../base/diag.h"
#include "limber/grip_pose.h"

/* lb_grip_pose_parse_json, recording "CODE: <key path>: <what>" in `diag`. */
lb_result lb_grip_pose_parse_json_diag(const char *json, size_t len, lb_grip_pose_def *out,
                                       lb_diag *diag);

#endif
