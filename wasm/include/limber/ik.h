/* Two-bone IK job (ozz style): a plain struct of inputs and outputs, a validate
 * and a run function; it allocates nothing and the caller owns every buffer.
 *
 * All positions and rotations are in one common space (usually rig model space).
 * The job writes rotation corrections that the caller multiplies onto the root,
 * mid and tip joints' model-space rotations (pre-multiplied: r' = corr * r).
 */
#ifndef LIMBER_IK_H
#define LIMBER_IK_H

#include "limber/base.h"
#include "limber/math.h"
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lb_two_bone_ik_job {
  /* inputs */
  const lb_transform *root; /* model transform of the root joint (shoulder) */
  const lb_transform *mid;  /* mid joint (elbow) */
  const lb_transform *tip;  /* tip joint (wrist) */
  vec3 target;              /* where the tip should go */
  versor target_rotation;   /* tip's wanted rotation (used when rotation_weight > 0) */
  bool has_hint;
  vec3 hint;             /* pole position: the mid joint bends toward it when the
                            animated limb gives no bend side */
  float weight;          /* [0,1] */
  float rotation_weight; /* [0,1] */
  float soften;          /* [0,1], 1 = off */
  /* outputs */
  versor root_correction;
  versor mid_correction;
  versor tip_correction; /* applied after the root and mid corrections */
  bool reached;          /* tip within 1e-4 m of target after the solve */
  float distance;        /* metres between solved tip and target */
} lb_two_bone_ik_job;

/* Zero-initialised job with defaults: weight 1, rotation_weight 0, soften 1. */
lb_two_bone_ik_job lb_two_bone_ik_default_job(void);
/* LB_OK, or LB_ERR_INVALID_ARGUMENT (null transforms), LB_ERR_NOT_FINITE (target,
 * hint, weights or the joints' positions and rotations), LB_ERR_OUT_OF_RANGE (weights
 * outside [0,1]). */
lb_result lb_two_bone_ik_job_validate(const lb_two_bone_ik_job *job);
/* Validates, then solves. Zero-length bones give identity corrections and
 * LB_ERR_DEGENERATE; nothing in the inputs is modified. */
lb_result lb_two_bone_ik_job_run(lb_two_bone_ik_job *job);
/* Earlier names, kept for one release (docs/architecture.md: jobs are lb_<name>_job_*). */
#define lb_two_bone_ik_validate lb_two_bone_ik_job_validate
#define lb_two_bone_ik_run lb_two_bone_ik_job_run

#ifdef __cplusplus
}
#endif
#endif
