/* Grip, finger wrap: fingers close from open toward their pose and stop on simple shapes.
 *
 * An ozz-style job (lb_wrap_job): a plain struct of inputs and outputs, a default, a
 * validate and a run function. Nothing allocates; the caller owns every buffer.
 *
 * ---- What it does ("wrap") -------------------------------------------------------------
 * Per finger, each segment joint j turns from its open rotation O_j (the rest: fully open)
 * toward its pose rotation P_j; at closing fraction s its local rotation is
 * slerp(O_j, P_j, s): the shorter arc at constant speed, as lb_quat_slerp (evaluated without
 * sines: every s the search visits is a grid point or the midpoint of two visited ones, and
 * arcs are halved by normalised sums; it matches lb_quat_slerp to float rounding, 1.2e-7 as
 * measured by tests/c/test_grip_wrap.c); s = 0 gives O_j and s = 1 gives P_j bit for bit. All of a
 * finger's joints start closing together with one common s. When a bone touches a shape, that
 * bone's joint and every joint before it stop (freeze) at the last s that did not touch; the joints
 * after it keep closing from that s, again together, until their own bone touches or they reach the
 * pose (s = 1). A finger therefore never bends past its pose, and a finger the pose leaves open
 * stays open. The thumb is treated like any other finger: it closes along the slerp path from open
 * to its (reach) pose.
 *
 * Bones. Bone k runs from segment joint k to segment joint k+1; the last bone ends at the
 * finger's end (tip) joint. Without an end joint the last bone is EXTRAPOLATED: it ends at
 * the last joint's model transform applied to that joint's own local translation, i.e. the
 * previous bone's offset replayed one joint further (exact for a straight chain whose joint
 * frames follow the bones), or, when given (`end_mask`), it ends at the hand rig's estimated
 * end. A one-segment finger without an end joint has no bone and just takes its pose. Bone k moves
 * with joints 0..k; the root joint's position never moves.
 *
 * Touch. A bone touches when one of its two sample points, the bone's midpoint and its end,
 * is closer to a shape than the bone's threshold for that shape (signed distance,
 * lb_shape_distance). The threshold is `margin`, except where a bone already starts (all
 * joints open) closer than the margin to a shape: for that bone and shape it becomes the
 * bone's own starting distance, so the bone may move but never gets deeper into it, while it
 * keeps the full margin to every other shape. (With more than 16 shapes within one finger's
 * reach a bone keeps one threshold for all of them, from the closest.) Points of a bone
 * between its samples are not tested: on a surface of curvature radius R (shape radius +
 * margin) they can be up to about h² / (8 R) closer than the samples, h = half the bone
 * length (2 mm for a 4 cm bone on a 1.5 cm cylinder with a 7 mm margin: still 5 mm off the
 * surface).
 *
 * Search, fixed and deterministic. The march visits s on a fixed grid of
 * LB_WRAP_MARCH_STEPS equal steps over the whole closing range [0, 1] (from the grid point
 * after where the current phase started), then LB_WRAP_BISECT_STEPS bisections between the
 * last clear s and the first touching one; joints freeze at the clear end. At each s the bone
 * that touched last is asked first, then the others from the root; the first that touches
 * is the one that stops the joints. Resolution: 1 / (8 · 2^4) = 1/128 of each joint's
 * open→pose angle (0.66° for an 85° bend): a sample stops at most K / 128 before the first
 * touching s (K below; 1.8 mm for the index tip of the 1.8 m test humanoid closing into an
 * 85° fist, where it moves up to 2.8 cm between two march steps). A shape thinner than K / 8
 * minus twice the margin, lying only across a fingertip's path, can be passed unseen.
 * Handles a finger wraps around are not.
 *
 * Cost. Per finger, shapes whose distance from the finger's root exceeds the finger's reach
 * (sum of its bone lengths) plus the margin are dropped first (one query per shape); a
 * finger with none left takes its pose; per bone, likewise with the lengths up to its end.
 * Each bone then keeps a proven sign: after its queries at s found clearance c (smallest
 * distance minus threshold over its samples), it stays clear (c >= 0) or touching (c < 0)
 * while |s' - s| < |c| / K, where K bounds how fast its samples move (sum over its closing
 * joints of the joint's open→pose angle times the chain length from that joint to the bone's
 * end). Such steps skip the bone's queries, and the kinematics run only as far as the bones
 * asked need; the first closing bone needs none (its end is a quadratic in the arc's cosine
 * and sine). These shortcuts take the same decisions as asking every bone every time:
 * tests/c/test_grip_wrap_reference.c compares with such a plain search. One handle across the
 * palm costs about 160 point-shape queries per hand (measured and printed by
 * tests/c/test_grip_wrap.c); bench grip.hand times it (npm run bench).
 *
 * Spaces. `shapes` must be resolved into the same space as `model` (usually the rig's
 * model space). The model transform of each finger root's PARENT is read from `model`;
 * every finger transform below it is rebuilt from `local` (translations and scales) and
 * the interpolated rotations, so `model` may hold any pose of the fingers themselves.
 */
#ifndef LIMBER_GRIP_WRAP_H
#define LIMBER_GRIP_WRAP_H

#include "limber/base.h"
#include "limber/geom.h"
#include "limber/grip.h"
#include "limber/math.h"
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LB_WRAP_MARCH_STEPS 8
#define LB_WRAP_BISECT_STEPS 4
/* The stopping distance: about one finger thickness, 8% of the index length
 * (lb_palm_frame_job.index_length). The caller multiplies; the job takes metres. */
#define LB_WRAP_MARGIN_FRACTION 0.08f
/* finger_mask bits: 1u << lb_finger. */
#define LB_WRAP_ALL_FINGERS 0x1Fu

typedef struct lb_wrap_finger {
  /* True when the finger was found and closed by the search (in the mask, with a bone and
   * a shape within reach); false when it simply took its pose or was not found. */
  bool searched;
  bool contact;      /* some bone of the finger stopped on a shape */
  int8_t first_bone; /* the first bone that touched (0 = from the root joint), -1 none */
  uint32_t queries;  /* point-shape distance queries spent on this finger */
  float closing[LB_FINGER_MAX_SEGMENTS]; /* s reached per segment joint, [0,1]; 0 if unused */
} lb_wrap_finger;

typedef struct lb_wrap_job {
  /* ---- inputs ---- */
  const lb_hand_info *hand;  /* from lb_hand_find_job_run; fingers with found = false are skipped */
  uint32_t joint_count;      /* entries in every array below; 1 .. LB_MAX_JOINTS (1024) */
  const int16_t *parents;    /* depth-first parents (-1 root); checks the finger chains */
  const lb_transform *local; /* this step's local pose: finger translations and scales */
  /* Local rotations (.r only) of each finger joint fully open (the rest) and at the full
   * pose. Unit quaternions, joint_count entries each; only finger joints are read. */
  const lb_transform *open_local;
  const lb_transform *pose_local;
  const lb_transform *model; /* this step's model pose; only finger roots' parents read */
  const lb_shape *shapes;    /* resolved into model's space; may be NULL if shape_count 0 */
  uint32_t shape_count;
  float margin;         /* metres, >= 0: stop distance (LB_WRAP_MARGIN_FRACTION × index) */
  uint32_t finger_mask; /* which fingers wrap; default LB_WRAP_ALL_FINGERS (thumb too) */
  /* Estimated ends (default none): a finger with 2+ segments, no end joint and its bit
   * (1u << lb_finger) set in end_mask ends its last bone at end_local[f], a point in the
   * last segment joint's local frame (lb_hand_rig_finger.tip_local), instead of the
   * extrapolated end described above. Must be finite when used. */
  uint32_t end_mask;
  vec3 end_local[LB_FINGER_COUNT];
  /* ---- outputs ---- */
  /* For every found finger's segment joints: t and s copied from `local`, r the wrapped
   * rotation (fingers outside the mask: their pose rotation). Other joints, including the
   * end joints, are not written. May be the same array as `local` or `pose_local`. */
  lb_transform *out_local;
  lb_wrap_finger fingers[LB_FINGER_COUNT];
  uint32_t queries; /* sum of the fingers' queries */
} lb_wrap_job;

/* Zeroed job with finger_mask = LB_WRAP_ALL_FINGERS, margin 0. */
lb_wrap_job lb_wrap_default_job(void);

/* LB_OK, or
 *   LB_ERR_INVALID_ARGUMENT  null job, hand, parents, local, open_local, pose_local, model
 *                            or out_local; shapes null with shape_count > 0; mask bits
 *                            beyond the five fingers; a found finger with 0 or > 3
 *                            segments, a joint index out of range, a chain that does not
 *                            follow `parents` (joint k+1's parent is joint k, the end
 *                            joint's parent the last segment), a root without a parent,
 *                            or a joint used by two fingers; a bad shape (type, axis)
 *   LB_ERR_OUT_OF_RANGE      joint_count, margin < 0, a zero open/pose rotation, a shape
 *                            size (see lb_shape_validate_resolved)
 *   LB_ERR_NOT_FINITE        margin, used local translations/scales, used end_local, open/pose
 * rotations, the roots' parents' model transforms, shape fields. */
lb_result lb_wrap_job_validate(const lb_wrap_job *job);

/* Validates, then wraps every found finger (thumb to pinky) and fills the outputs. On a
 * validation failure nothing is written (the per-finger results are zeroed). */
lb_result lb_wrap_job_run(lb_wrap_job *job);
/* Earlier names, kept for one release (docs/architecture.md: jobs are lb_<name>_job_*). */
#define lb_wrap_validate lb_wrap_job_validate
#define lb_wrap_run lb_wrap_job_run

#ifdef __cplusplus
}
#endif
#endif
