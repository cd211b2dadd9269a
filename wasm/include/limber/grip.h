/* Grip, part 1: finding a hand and its fingers on any skeleton, and the palm frame.
 *
 * Both are ozz-style jobs: a plain struct of inputs and outputs, a validate and a run
 * function; nothing allocates and the caller owns every buffer.
 *
 * ---- Hand finding (lb_hand_find_job) ----------------------------------------------
 * The skeleton is given as arrays in depth-first order (parents[i] < i, -1 = root), as
 * stored by the world (lb_skeleton_joint_name / lb_skeleton_joint_parent).
 *
 * Names are compared case-insensitively after dropping a namespace (everything up to
 * the last ':', e.g. "mixamorig:"). A name is split into tokens at any character that
 * is not a letter or digit, at lower→Upper case changes ("RightHand" → right hand), at
 * "RHand" → r hand, and between letters and digits ("Digit0" → digit 0).
 *
 * Hand: a joint is a hand candidate for the right side when one token is "hand" plus a
 * separate right-side token ("right" or "r"), or one token is "righthand", "rhand",
 * "handright" or "handr" (same with left / l), and no token names the other side and
 * no finger word occurs in the name. Among candidates the one with the most finger-named
 * joints below it wins (so "ik_hand_r" without fingers loses to "hand_r"), then the one
 * with fewest tokens, then the lowest index. Examples found: RightHand,
 * mixamorig:RightHand, hand_r, Hand_R, hand.R, R_Hand, RHand, right_hand.
 * An explicit `hand_path` overrides the search: a full slash-separated path from a root
 * ("Hips/Spine/.../RightHand") or a bare joint name (first match in index order).
 *
 * Fingers (searched anywhere in the hand's subtree, so unrelated palm bones such as
 * "palm.01.R" or Daz's "rCarpal1" in between are fine). Each joint name is read by these
 * rules, tried in this order; the first that applies names the joint's finger:
 *   1. Finger words: the name contains thumb, index, middle, ring, pinky, pinkie or
 *      little (little = pinky; the first word of that list that occurs decides), else
 *      has a token "mid" (= middle). Mixamo RightHandIndex1, Unreal index_01_r, Rigify
 *      f_index.01.R, VRM rightIndexProximal / J_Bip_R_Index1, Daz rIndex1 / rMid1,
 *      Character Creator CC_Base_R_Index1 / CC_Base_R_Mid1.
 *   2. Numbered fingers: a token "finger" or "digit" followed by a number of one or two
 *      digits; the first digit is the finger, 0 = thumb .. 4 = pinky (the second, if any,
 *      the segment). 3ds Max Biped "Bip01 R Finger0", "Bip01 R Finger01", "Finger0Nub";
 *      "R_Digit0_1". When the hand's numbers run 1..5 (a 5 and no 0), 1 = thumb.
 * A name matching neither is no finger joint. Then, per finger:
 *   3. Copies: a first token "def" (Rigify's deform bones, "DEF-f_index.01.R") ranks
 *      before unprefixed names, which rank before "org" and then "mch" copies; the root
 *      is taken from the best rank present (the hand likewise, see below).
 *   4. METACARPALS of index, middle, ring and pinky are palm bones: skipped and recorded
 *      in `metacarpal` when (a) the name contains "metacarpal" or has a token "meta" or
 *      "mc", or (b) (rule 1 names only) its last number token is 0 ("index_00_r",
 *      "Index0") and a joint below it is named for the same finger. A thumb joint is
 *      never a metacarpal: VRM 1.0 rightThumbMetacarpal is the thumb's first joint, as
 *      Mixamo Thumb1, Unreal thumb_01 and Biped Finger0 are.
 *   5. The root is the first joint in depth-first order of the best copy rank named for
 *      the finger that is not a metacarpal. The chain then follows, from the root, the
 *      first child named for the same finger (of the root's copy rank if there is one;
 *      explicitly mapped fingers: the first child, whatever its name), up to 4 joints.
 *      The first up to 3 are the segments; a 4th is the end (tip) joint. A leaf joint
 *      among the first three whose tokens include end, tip, nub or leaf is the end joint
 *      instead. (A thumb with a metacarpal and three more joints: the third is its end.)
 * Hand choice: among hand candidates, one with finger joints below it wins, then the
 * better copy rank, then the most finger joints below, then the fewest tokens, then the
 * lowest index.
 *
 * Explicit finger mapping (`finger_roots[f]`, GripPose.rightFingerRoots/leftFingerRoots,
 * for rigs whose fingers follow none of these, e.g. "Bone012"): a path relative to the hand
 * ("palm/R_Digit1_1"), a full path from a root, or a bare name searched in the hand's
 * subtree. Mapped fingers skip the name search; unmapped (NULL or "") fingers are still
 * found by name.
 *
 * The report (see lb_hand_info.report) is never cut short. When fingers are missing it
 * says which, why a mapped joint failed ("no such joint" or "not under the hand"), names
 * the field to set (rightFingerRoots / leftFingerRoots) with an example made of the rig's
 * own joint names (found roots, then unused chain starts below the hand in depth-first
 * order: check the order), and lists the joints below the hand that were considered.
 *
 * Missing end joints (VRM, Daz, many exports): the last bone's end is ESTIMATED as
 * LB_HAND_TIP_ESTIMATE times the previous bone, continuing it (in the last joint's own
 * frame, so it follows that joint's rotation). It counts in the hand size (the index
 * length), the fingertip the thumb reaches for and its own tip, and the wrap's last bone.
 * Fingers with a single segment and no end joint get no estimate.
 *
 * ---- Palm frame (lb_palm_frame_job) ----------------------------------------------
 * From model-space joint transforms (any common space works):
 *   reference point M = middle root; fallback index root; fallback the centroid of the
 *                       hand joint's direct children (see `parents` below).
 *   origin = (hand + M) / 2
 *   +Z     = normalize(M - hand)                    (along the fingers)
 *   S      = index root → pinky root direction      (fallbacks: the first found of
 *            index, middle, ring, thumb to the first found of pinky, ring, middle)
 *   +Y     = normalize(Z × S) for the RIGHT hand, normalize(S × Z) for the LEFT hand
 *   +X     = Y × Z                                  (right-handed basis)
 * Derivation: on the humanoid (T-pose facing +Z, palms down) the right hand's fingers
 * point -X world and index→pinky points -Z world, so Z × S = (-1,0,0) × (0,0,-1) =
 * (0,-1,0): out of the palm. The left hand's Z is +X world, where Z × S = +Y (the back
 * of the hand), hence the flipped order. Consequence: the thumb is on the palm frame's
 * -X side for the RIGHT hand and on its +X side for the LEFT hand (both thumbs point
 * +Z world, forward, in the T-pose; the right hand's +X is -Z world, the left's +Z).
 * The frame is thus a mirror image between the hands, matching a mirrored anchor.
 */
#ifndef LIMBER_GRIP_H
#define LIMBER_GRIP_H

#include "limber/base.h"
#include "limber/math.h"
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum lb_hand_side { LB_HAND_RIGHT = 0, LB_HAND_LEFT = 1 } lb_hand_side;

typedef enum lb_finger {
  LB_FINGER_THUMB = 0,
  LB_FINGER_INDEX = 1,
  LB_FINGER_MIDDLE = 2,
  LB_FINGER_RING = 3,
  LB_FINGER_PINKY = 4,
  LB_FINGER_COUNT = 5
} lb_finger;

#define LB_FINGER_MAX_SEGMENTS 3
/* A missing end bone's length as a fraction of the bone before it (distal over middle
 * phalanx of a human finger, roughly). */
#define LB_HAND_TIP_ESTIMATE 0.8f

/* Lower-case finger name: "thumb", "index", "middle", "ring", "pinky"; "" if invalid. */
const char *lb_finger_name(lb_finger f);

typedef struct lb_finger_info {
  bool found;
  bool explicit_mapping;                  /* root came from finger_roots */
  uint8_t segment_count;                  /* 0 .. 3 (0 only when !found) */
  int16_t joints[LB_FINGER_MAX_SEGMENTS]; /* segment joints from the root; -1 unused */
  int16_t tip;                            /* end joint, or -1 */
  int16_t metacarpal;                     /* skipped palm bone named for this finger, or -1 */
} lb_finger_info;

typedef struct lb_hand_info {
  lb_hand_side side;
  int16_t hand; /* hand joint, -1 if not found */
  uint8_t finger_count;
  lb_finger_info fingers[LB_FINGER_COUNT];
  /* NUL-terminated summary, never cut short, e.g. "right hand 'hand_r' (12); fingers:
   * thumb index middle pinky; missing: ring; set GripPose.rightFingerRoots to the
   * thumb,index,middle,ring,pinky roots, e.g. ...". Points at text owned by what filled the info:
   * the job's `report` buffer (lb_hand_find_job_run; "" without one), the world
   * (lb_world_find_hand: until the next call), or the shared hand (lb_world_grip_hand_status: until
   * the character's Rig, GripPose or GripHolder changes). Never NULL once filled. */
  const char *report;
} lb_hand_info;

typedef struct lb_hand_find_job {
  /* inputs */
  uint32_t joint_count;                      /* 1 .. LB_MAX_JOINTS (1024) */
  const char *const *names;                  /* non-null names */
  const int16_t *parents;                    /* depth-first: -1 <= parents[i] < i */
  lb_hand_side side;                         /* default LB_HAND_RIGHT */
  const char *hand_path;                     /* NULL or "" = find by name (default) */
  const char *finger_roots[LB_FINGER_COUNT]; /* NULL or "" = find by name (default) */
  char *report;      /* optional buffer for the report (default NULL: none) ... */
  size_t report_cap; /* ... of this many bytes */
  /* output */
  lb_hand_info info; /* info.report = report ("" when there is no buffer) */
  /* The report's full length without the NUL. When it is >= report_cap the buffer holds
   * only its start: run again with report_len + 1 bytes (the job is deterministic). */
  size_t report_len;
} lb_hand_find_job;

/* Zero-initialised job: side right, no overrides, no report buffer. */
lb_hand_find_job lb_hand_find_default_job(void);
/* LB_OK, or LB_ERR_INVALID_ARGUMENT (null arrays or names, bad side), LB_ERR_OUT_OF_RANGE
 * (joint_count), LB_ERR_CYCLE (a parent not before its child), LB_ERR_INVALID_ARGUMENT
 * also when the order is not depth-first (a parent that is neither the previous joint
 * nor one of its ancestors). */
lb_result lb_hand_find_job_validate(const lb_hand_find_job *job);
/* Validates, then fills job->info (also on failure: hand = -1 when no hand was found,
 * and the report says why). LB_OK when the hand was found, even with fingers missing (they are
 * listed in the report; finger_count says how many were found). LB_ERR_JOINT_NOT_FOUND when no hand
 * matches, or an explicit hand path or finger root does not resolve. */
lb_result lb_hand_find_job_run(lb_hand_find_job *job);
/* Earlier names, kept for one release (docs/architecture.md: jobs are lb_<name>_job_*). */
#define lb_hand_find_validate lb_hand_find_job_validate
#define lb_hand_find_run lb_hand_find_job_run

typedef struct lb_world lb_world;
/* lb_hand_find_job_run on the skeleton of `e`'s Rig: `hand_path` (NULL or "" = by name)
 * names the hand joint explicitly. Errors name the entity: LB_ERR_STALE_ENTITY,
 * LB_ERR_MISSING_COMPONENT (no Rig), LB_ERR_JOINT_NOT_FOUND (no hand; *out still holds
 * the report, which is also the world's last error). out->report is kept by the world
 * until the next call; nothing else of the world changes. */
lb_result lb_world_find_hand(lb_world *world, uint32_t e, lb_hand_side side, const char *hand_path,
                             lb_hand_info *out);

/* A character's grip hand as the last step left it (gripPoseStatus). */
typedef struct lb_grip_hand_status {
  uint32_t driver;       /* 0 animation only, 1 GripPose, 2 GripHolder main, 3 GripHolder support,
                            4 support released to a higher owner (a vault plant) */
  int32_t hand;          /* hand joint, -1 when not resolved */
  lb_result found;       /* LB_OK or why the hand (or fingers) were not found */
  float blend;           /* ease progress 0..1 (1 = settled) */
  float palm_distance;   /* metres from the palm centre to its anchor (holder-driven hands) */
  uint32_t contacts;     /* bit per finger (thumb = bit 0) touching a GripSurface */
  uint32_t params_ready; /* the arm was measured at the first grip */
  float index_length;    /* metres in the world (the hand's model scale and the entity's
                            world scale applied), end bones estimated */
  /* Nonzero when the palm frame is known (enough fingers for it). Without it the hand
   * joint stands in for the palm: a holder's arm still reaches with it, but mainReached /
   * supportReached stay false and the distance is the hand joint's. */
  uint32_t palm_known;
  uint32_t tip_estimated; /* bit per finger (thumb = bit 0) whose end was estimated */
  uint32_t tip_from_mesh; /* of those, the bits whose end is where the skinned mesh ends
                             (lb_joint_end); the others use the LB_HAND_TIP_ESTIMATE ratio */
  /* Fingertips in the rig's model space as the last step left them: the end joint, else the
   * estimated end, else the last joint (a one-segment finger); zero for a finger not found
   * or before the hand is resolved. */
  float tips[LB_FINGER_COUNT][3];
  lb_hand_info info; /* the hand and fingers found; its report also tells the
                        estimated ends and, when fingers are missing, the mapping */
} lb_grip_hand_status;
/* LB_ERR_STALE_ENTITY, LB_ERR_OUT_OF_RANGE (side), LB_ERR_MISSING_COMPONENT (no GripPose or
 * GripHolder on the entity). No message is recorded; the world is not changed. */
lb_result lb_world_grip_hand_status(const lb_world *world, lb_entity e, lb_hand_side side,
                                    lb_grip_hand_status *out);
/* World transform of a holder's anchor as the last step used it: role 0 = main, 1 =
 * support; mirrored when the main hand is not the profile's hand. LB_ERR_MISSING_COMPONENT
 * when nothing is held or the role has no anchor. */
lb_result lb_world_grip_anchor(const lb_world *world, lb_entity holder, int role,
                               lb_transform *out);

typedef struct lb_palm_frame_job {
  /* inputs */
  const lb_hand_info *hand;  /* from lb_hand_find_job_run, hand >= 0 */
  const lb_transform *model; /* per-joint transforms in one common space */
  uint32_t joint_count;      /* entries in model; every index in hand must be below */
  /* Optional (default NULL): the skeleton's parents, depth-first, joint_count entries.
   * Only used by the last fallback for the reference point: with parents it is the
   * centroid of the hand joint's direct children, without it of the found finger roots. */
  const int16_t *parents;
  /* outputs */
  lb_transform frame;          /* t = origin (metres), r = palm axes → space rotation, s = 1 */
  vec3 x_axis, y_axis, z_axis; /* unit columns of the same rotation */
  /* Hand scale reference, metres: the index finger's length, summing distances along
   * root → segments → end; without an end joint the last bone is estimated as
   * LB_HAND_TIP_ESTIMATE times the one before it (2+ segments; one segment: 0). 0 when
   * the index finger is missing. */
  float index_length;
} lb_palm_frame_job;

lb_palm_frame_job lb_palm_frame_default_job(void);
/* LB_OK, or LB_ERR_INVALID_ARGUMENT (null pointers, hand < 0, or a joint index of the
 * hand info >= joint_count), LB_ERR_NOT_FINITE (a used position). */
lb_result lb_palm_frame_job_validate(const lb_palm_frame_job *job);
/* Validates, then computes. LB_ERR_DEGENERATE (identity frame at the hand) when the
 * hand has no usable finger or child, the finger direction is shorter than 1e-6 m, or
 * fewer than two distinct finger roots give the across-palm direction, or it is
 * parallel to the fingers. */
lb_result lb_palm_frame_job_run(lb_palm_frame_job *job);
/* Earlier names, kept for one release (docs/architecture.md: jobs are lb_<name>_job_*). */
#define lb_palm_frame_validate lb_palm_frame_job_validate
#define lb_palm_frame_run lb_palm_frame_job_run

/* ---- Captured finger poses (named joint rotations, one skeleton's hand) ------------ */
#define LB_FINGER_POSE_MAX 64        /* registered per world */
#define LB_FINGER_POSE_JOINTS_MAX 64 /* joints per captured pose */

/* Writes {"hand":"<hand joint name>","joints":{"<name>":[x,y,z,w],...}} for every joint
 * below `hand_joint` (a path or name in e's rig) in depth-first order, local rotations of
 * the last step, numbers as "%.9g" (bit-exact round trip). `*needed` receives the length
 * without the NUL; the text is written only when it fits in `cap` (NUL included).
 * Errors: LB_ERR_STALE_ENTITY, LB_ERR_MISSING_COMPONENT (no Rig), LB_ERR_JOINT_NOT_FOUND,
 * LB_ERR_CAPACITY (more than LB_FINGER_POSE_JOINTS_MAX joints below the hand). */
lb_result lb_world_capture_finger_pose(lb_world *world, uint32_t e, const char *hand_joint,
                                       char *buf, size_t cap, size_t *needed);
/* Parses a captured pose (the format above; "hand" optional) and stores it under `name`
 * (1..31 bytes; replaces a pose of that name) for GripProfile.mainPose/supportPose.
 * Every joint must exist in a skeleton of this world. Errors (nothing stored):
 * LB_ERR_PARSE (malformed JSON, wrong types), LB_ERR_NOT_FINITE, LB_ERR_OUT_OF_RANGE
 * (zero rotation, bad name), LB_ERR_JOINT_NOT_FOUND (unknown joint), LB_ERR_CAPACITY,
 * LB_ERR_INVALID_ARGUMENT (a grip pose, built-in or registered, has the name: the two kinds
 * share one namespace). */
lb_result lb_world_register_finger_pose(lb_world *world, const char *name, const char *json,
                                        size_t len);
/* True when a captured pose of that name is registered. */
bool lb_world_has_finger_pose(const lb_world *world, const char *name);

#ifdef __cplusplus
}
#endif
#endif
