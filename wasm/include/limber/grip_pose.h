/* Grip, part 2: hand shapes (GripPose). A pose says how much each finger bends and
 * spreads and where the thumb reaches; it names no bone, so one pose works on any
 * skeleton and either hand. Everything here is a value type or an ozz-style job: no
 * function allocates except lb_grip_pose_parse_json (cJSON's parse tree, freed before
 * it returns); jobs take no allocator and the caller owns every buffer.
 *
 * ---- Palm axes (see limber/grip.h) ---------------------------------------------
 * +Z along the fingers, +Y out of the palm (the palm side), +X = Y x Z. The thumb is on
 * the -X side of the RIGHT hand and on the +X side of the LEFT hand: the two frames are
 * mirror images, so one pose gives mirrored hands.
 *
 * ---- A finger's shape (index, middle, ring, pinky) ------------------------------
 * Each segment joint k (0 = root/knuckle, 1, 2) turns from its REST local rotation by
 *   bend[k] degrees about the palm -X axis   (positive curls the finger toward +Y,
 *                                             the palm side, for either hand)
 * and the root joint also by
 *   fan degrees about the palm Y axis        (positive turns index and middle toward the
 *                                             thumb side, ring and pinky away from it;
 *                                             the sign follows the hand, so + is the
 *                                             same gesture on both hands)
 * target_local = fan_rotation * bend_rotation * rest_local (rotations in the parent
 * joint's frame). Where the fields come from, per finger (the `set` flags say which
 * fields are given; a field whose flag is clear is ignored):
 *   bend  given → bend[0..2] as given (degrees, relative to rest; overrides curl/base)
 *   else        → bend = { base * LB_GRIP_CURL_DEG_0, curl * LB_GRIP_CURL_DEG_1,
 *                          curl * LB_GRIP_CURL_DEG_2 }, curl default 0, base default curl
 *   fan   given → fan (degrees; overrides spread)
 *   else        → spread * LB_GRIP_SPREAD_DEG_<finger>, spread default 0
 * So an empty shape is the rest pose, exactly. Fingers with fewer segments use the first
 * bend values; a missing finger is skipped.
 *
 * Trigger: a finger may give a second shape, its state at trigger 1. Its bend group
 * (curl, base, bend) and its fan group (spread, fan) each fall back to the finger's own
 * shape when the trigger shape gives no field of that group (so {"curl":0.7} pulls the
 * finger without changing its spread). At trigger t the finger's angles are
 * a*(1-t) + b*t per angle (exact at t = 0 and t = 1). Fingers without a trigger shape
 * ignore the trigger; a pose "has a trigger" only if some finger defines one.
 *
 * ---- The thumb --------------------------------------------------------------------
 * The thumb has no angles: it reaches. Goal point G = R + gap * index_length * palm_Y,
 * where R is, on the other fingers' POSED positions of this step,
 *   LB_THUMB_TO_FINGERS: the middle finger's middle joint (its 2nd segment joint;
 *                        its tip when it has one segment), for fists and handles;
 *   LB_THUMB_TO_INDEX:   the index finger's tip (end joint, else its estimated end, see
 *                        limber/grip.h, else its last joint), pinch.
 * The tip's target T = rest_tip + opposition * (G - rest_tip). Solve (fixed work, no
 * input-dependent iteration count): the two distal thumb joints bend by one shared
 * angle in [0, LB_GRIP_THUMB_BEND_MAX_DEG] about the thumb's own bend axis
 * (rest direction x palm Y, so bending moves the tip toward the palm side) so that the
 * root→tip distance matches root→T (12 bisection steps on the unit circle and one
 * interpolation: distance error ~1e-8 m); then the thumb root turns by the shortest
 * rotation that points root→tip at T. Out of reach (T farther than the straight thumb) →
 * unbent, pointing at T; too close → fully bent (90 degrees), pointing at T.
 * opposition 0 → the rest rotations exactly. When the target finger is missing, the
 * thumb stays at rest.
 */
#ifndef LIMBER_GRIP_POSE_H
#define LIMBER_GRIP_POSE_H

#include "limber/base.h"
#include "limber/grip.h"
#include "limber/math.h"
#include "limber/rig.h"
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Curl 1 in degrees per joint (knuckle, middle, end joint). */
#define LB_GRIP_CURL_DEG_0 90.0f
#define LB_GRIP_CURL_DEG_1 100.0f
#define LB_GRIP_CURL_DEG_2 70.0f
/* Fan in degrees at spread 1 (spread -1 gives the negative). */
#define LB_GRIP_SPREAD_DEG_INDEX 15.0f
#define LB_GRIP_SPREAD_DEG_MIDDLE 5.0f
#define LB_GRIP_SPREAD_DEG_RING 10.0f
#define LB_GRIP_SPREAD_DEG_PINKY 20.0f
/* Largest shared bend of the two distal thumb joints, degrees (thumb_reach.c bisects the
 * quarter circle, so this is fixed). */
#define LB_GRIP_THUMB_BEND_MAX_DEG 90.0f

/* Value ranges checked by lb_grip_pose_validate (inclusive). */
#define LB_GRIP_BEND_MIN_DEG -180.0f
#define LB_GRIP_BEND_MAX_DEG 180.0f
#define LB_GRIP_FAN_MAX_DEG 90.0f /* fan in [-90, 90] */
#define LB_GRIP_GAP_MAX 2.0f      /* gap in [0, 2] index lengths */

/* Which fields of an lb_finger_shape are given. */
enum {
  LB_SHAPE_CURL = 1u << 0,
  LB_SHAPE_BASE = 1u << 1,
  LB_SHAPE_SPREAD = 1u << 2,
  LB_SHAPE_BEND = 1u << 3,
  LB_SHAPE_FAN = 1u << 4,
  LB_SHAPE_ALL = 0x1fu
};

typedef struct lb_finger_shape {
  uint32_t set;  /* LB_SHAPE_* flags; 0 = rest */
  float curl;    /* [0, 1]: 0 rest .. 1 full grip; default 0 */
  float base;    /* [0, 1]: the root joint's curl; default = curl */
  float spread;  /* [-1, 1]; default 0 */
  float fan;     /* degrees [-90, 90] about palm Y at the root; overrides spread */
  float bend[3]; /* degrees [-180, 180] per joint from the root; overrides curl/base */
} lb_finger_shape;

typedef struct lb_grip_finger_def {
  lb_finger_shape shape;
  bool has_trigger;
  lb_finger_shape trigger; /* state at trigger 1 (see the header comment) */
} lb_grip_finger_def;

typedef enum lb_thumb_target {
  LB_THUMB_TO_FINGERS = 0, /* middle finger's middle joint (default) */
  LB_THUMB_TO_INDEX = 1    /* index tip */
} lb_thumb_target;

typedef struct lb_grip_thumb_def {
  float opposition;   /* [0, 1]: 0 rest .. 1 at the goal; default 0 */
  lb_thumb_target to; /* default LB_THUMB_TO_FINGERS */
  float gap;          /* [0, 2] index lengths before R along palm +Y; default 0 */
} lb_grip_thumb_def;

typedef struct lb_grip_pose_def {
  /* Indexed by lb_finger: INDEX, MIDDLE, RING, PINKY. The THUMB slot is unused and must
   * stay empty (set 0, no trigger); the thumb is `thumb`. */
  lb_grip_finger_def fingers[LB_FINGER_COUNT];
  lb_grip_thumb_def thumb;
} lb_grip_pose_def;

/* The rest pose ("open"): every shape empty, thumb opposition 0. */
lb_grip_pose_def lb_grip_pose_default_def(void);
/* LB_OK, LB_ERR_INVALID_ARGUMENT (null, unknown flag bits, a used thumb slot, bad `to`),
 * LB_ERR_NOT_FINITE (any value, used or not), LB_ERR_OUT_OF_RANGE (a given value outside
 * its range above; trigger shapes are checked whether or not has_trigger is set). */
lb_result lb_grip_pose_validate(const lb_grip_pose_def *def);
/* True when some finger defines a trigger shape. */
bool lb_grip_pose_has_trigger(const lb_grip_pose_def *def);
/* Bit-exact equality of everything (floats compared by bits, -0 != +0). */
bool lb_grip_pose_equal(const lb_grip_pose_def *a, const lb_grip_pose_def *b);

/* A finger's angles at `trigger` (clamped to [0, 1]; ignored without a trigger shape):
 * bend_deg[3] per joint and fan_deg, exactly what lb_finger_pose_job applies. The def
 * must be valid; `f` one of INDEX..PINKY. LB_ERR_INVALID_ARGUMENT otherwise. */
lb_result lb_grip_pose_finger_angles(const lb_grip_pose_def *def, lb_finger f, float trigger,
                                     float bend_deg[3], float *fan_deg);

/* gripPoseByJoint: every finger (and every trigger shape) in bend[3] + fan form (set =
 * LB_SHAPE_BEND | LB_SHAPE_FAN); the thumb is copied. Applying `out` gives bit-identical
 * rotations at every trigger value. `out` may alias `in`. Errors as validate; *out is
 * untouched on error. */
lb_result lb_grip_pose_by_joint(const lb_grip_pose_def *in, lb_grip_pose_def *out);

/* ---- built-in poses ---------------------------------------------------------------
 * open     the rest pose
 * relaxed  a hanging hand: light curl growing toward the pinky, thumb slightly in
 * fist     every finger curled fully, thumb over the middle finger's middle joint
 * pistol   index straight (only its knuckle bends a little) along the gun, the others
 *          wrapped round the grip, thumb over them; trigger 1 pulls the index
 * support  hand under a rifle foregrip: fingers half curled, thumb across
 * handle   hammer / sword / tool handle: fingers wrapped with room for the handle
 * pinch    thumb tip to the index tip, other fingers tucked
 * cup      cup or ball: fingers spread and curled round it (wrap stops them on the surface), thumb
 * opposite Names are matched exactly (lower case). */
lb_result lb_grip_pose_builtin(const char *name, lb_grip_pose_def *out); /* or UNKNOWN_NAME */
uint32_t lb_grip_pose_builtin_count(void);
const char *lb_grip_pose_builtin_name(uint32_t i); /* NULL when i >= count */

/* ---- registry (one per world) -----------------------------------------------------
 * Fixed capacity, zero-initialised = empty, no allocation. User poses shadow built-ins
 * of the same name. */
#define LB_GRIP_POSE_REGISTRY_MAX 64
#define LB_GRIP_POSE_NAME_MAX 32 /* bytes including the NUL: names are 1..31 bytes */

typedef struct lb_grip_pose_registry {
  uint32_t count;
  char names[LB_GRIP_POSE_REGISTRY_MAX][LB_GRIP_POSE_NAME_MAX];
  lb_grip_pose_def defs[LB_GRIP_POSE_REGISTRY_MAX];
} lb_grip_pose_registry;

/* Adds or replaces `name` (built-in names may be replaced). LB_ERR_INVALID_ARGUMENT
 * (null), LB_ERR_OUT_OF_RANGE (name empty or >= 32 bytes), the def's validation error,
 * LB_ERR_CAPACITY (64 user poses and `name` is new). Unchanged on error. */
lb_result lb_grip_pose_registry_set(lb_grip_pose_registry *reg, const char *name,
                                    const lb_grip_pose_def *def);
/* User pose first, then built-in. `reg` may be NULL (built-ins only).
 * LB_ERR_UNKNOWN_NAME when neither has it; *out untouched then. */
lb_result lb_grip_pose_registry_find(const lb_grip_pose_registry *reg, const char *name,
                                     lb_grip_pose_def *out);

/* ---- JSON (registerGripPose format) ---------------------------------------------
 * {"thumb":{"opposition":1,"gap":0.2,"to":"fingers"|"index"},
 *  "index":{"curl":0.9,"base":0.2,"spread":0.5,"bend":[30,45,20],"fan":4,
 *           "trigger":{"curl":0.7}}, "middle":{...}, "ring":{...}, "pinky":{...}}
 * Every key is optional; absent fields keep the defaults. Unknown or repeated keys,
 * wrong types, non-finite numbers, values out of range, a bend array that is not 3
 * numbers, trailing text → an error; `err` (may be NULL) gets a NUL-terminated message
 * naming the key path, e.g. "index.bend[1]: expected a number", and *out is untouched.
 * Returns LB_ERR_PARSE (syntax, types, keys), LB_ERR_NOT_FINITE, LB_ERR_OUT_OF_RANGE,
 * LB_ERR_INVALID_ARGUMENT (null json or out). Allocates only inside cJSON, all freed. */
lb_result lb_grip_pose_parse_json(const char *json, size_t len, lb_grip_pose_def *out, char *err,
                                  size_t errcap);
/* Writes the def as compact JSON in a fixed key order; each float as the shortest
 * "%.{6..9}g" text that reads back to the same float, so write → parse is bit-exact.
 * Only given fields are written (thumb fields only when not the default). On LB_OK buf
 * holds a NUL-terminated text and *written its length. LB_ERR_CAPACITY when cap is too
 * small: *written = the length needed (excluding the NUL), buf[0] = NUL if cap > 0; buf
 * may be NULL with cap 0 to ask for the length. LB_ERR_INVALID_ARGUMENT (null written).
 * Validation errors as lb_grip_pose_validate. */
lb_result lb_grip_pose_write_json(const lb_grip_pose_def *def, char *buf, size_t cap,
                                  size_t *written);

/* ---- hand parameters per rig and side ---------------------------------------------
 * Built once per skeleton and hand from the skeleton's REST local transforms only, so
 * the result does not depend on what the animation did at first grip (no model pose is
 * needed; the palm frame is found on the rest hand, relative to the hand joint). Everything a
 * pose needs is stored in the joints' own frames, so a pose is skeleton-agnostic. */
typedef struct lb_hand_rig_finger {
  bool found;
  uint8_t segment_count; /* 1..3 when found */
  int16_t joints[LB_FINGER_MAX_SEGMENTS];
  int16_t tip; /* end joint or -1 */
  /* No end joint, 2+ segments: the estimated end (see limber/grip.h), a point in the
   * last segment joint's local frame (scaled like a local translation). */
  bool tip_estimated;
  bool tip_from_mesh; /* the estimate is where the skinned mesh ends (lb_joint_end), not the
                         LB_HAND_TIP_ESTIMATE ratio */
  vec3 tip_local;
  int16_t root_parent;                    /* parent of joints[0] (hand or a palm bone) */
  versor rest[LB_FINGER_MAX_SEGMENTS];    /* rest local rotations */
  vec3 bend_axis[LB_FINGER_MAX_SEGMENTS]; /* unit, in each joint's PARENT frame: + curls */
  vec3 fan_axis;                          /* unit, in the root's parent frame: + = doc sign */
} lb_hand_rig_finger;

typedef struct lb_hand_rig {
  uint32_t valid;       /* nonzero once built */
  uint32_t joint_count; /* of the skeleton it was built for */
  lb_hand_side side;
  int16_t hand;
  lb_hand_rig_finger fingers[LB_FINGER_COUNT];
  lb_transform palm;      /* palm frame relative to the hand joint (rest), s = 1 */
  float index_length;     /* hand-size unit in the hand joint's units (metres at scale 1);
                             index, else middle, ring or pinky length; end bones estimated */
  uint32_t tip_estimated; /* bit per finger (thumb = bit 0): fingers[f].tip_estimated */
  uint32_t tip_from_mesh; /* bit per finger: fingers[f].tip_from_mesh */
} lb_hand_rig;

/* From the found hand (lb_hand_find_job_run), the skeleton's parents (depth-first,
 * parents[i] < i) and local rest transforms (joint_count entries). The thumb's bend
 * axis comes from its rest direction; the palm frame from lb_palm_frame_job on the rest
 * hand. LB_ERR_INVALID_ARGUMENT (nulls, hand < 0, joint indices out of range, a finger
 * chain that is not parent → child or not under the hand), LB_ERR_OUT_OF_RANGE
 * (joint_count), LB_ERR_NOT_FINITE (a used rest transform), LB_ERR_DEGENERATE (no palm
 * frame, see grip.h). *out is written only on LB_OK. */
lb_result lb_hand_rig_build(const lb_hand_info *hand, const int16_t *parents,
                            const lb_transform *rest_local, uint32_t joint_count, lb_hand_rig *out);
/* The same with where the skinned mesh ends per joint (lb_skeleton_def.mesh_ends,
 * joint_count entries; null = none): a finger of 2+ segments without an end joint ends at
 * its last joint's known mesh end (tip_from_mesh) and falls back to the
 * LB_HAND_TIP_ESTIMATE ratio where that end is not known. lb_hand_rig_build is this with
 * null ends. */
lb_result lb_hand_rig_build_ends(const lb_hand_info *hand, const int16_t *parents,
                                 const lb_transform *rest_local, const lb_joint_end *ends,
                                 uint32_t joint_count, lb_hand_rig *out);

/* ---- the pose job -------------------------------------------------------------------
 * Writes the TARGET local rotations (full weight) of every found finger joint, thumb
 * included, into out_local[j].r; nothing else of out_local is touched, so the caller
 * blends with weight afterwards. out_local may be the same array as local. */
typedef struct lb_finger_pose_job {
  /* inputs */
  const lb_hand_rig *rig;
  const lb_grip_pose_def *pose;
  float trigger;             /* [0, 1]; default 0 */
  uint32_t joint_count;      /* must equal rig->joint_count */
  const lb_transform *local; /* this step's local pose (finger joints' t and s used) */
  const lb_transform *model; /* this step's model pose (the hand and finger roots'
                                parents used; the hand may be animated) */
  /* outputs */
  lb_transform *out_local; /* joint_count entries; finger joints' .r written */
  /* Model-space positions after the pose: positions[f][k] for the segment joints
   * k < segment_count, positions[f][3] the tip (end joint, else the estimated end,
   * else the last segment joint). Zero for missing fingers and unused slots. */
  vec3 positions[LB_FINGER_COUNT][LB_FINGER_MAX_SEGMENTS + 1];
  lb_transform palm;  /* palm frame in model space this step (s = 1) */
  float index_length; /* in model units this step (rig value times hand scale x) */
} lb_finger_pose_job;

lb_finger_pose_job lb_finger_pose_default_job(void);
/* LB_OK, LB_ERR_INVALID_ARGUMENT (nulls, rig not built, joint_count mismatch),
 * LB_ERR_NOT_FINITE (trigger, used local/model entries), LB_ERR_OUT_OF_RANGE (trigger),
 * or the pose's validation error. */
lb_result lb_finger_pose_job_validate(const lb_finger_pose_job *job);
/* Validates, then writes. Nothing is written on error. */
lb_result lb_finger_pose_job_run(lb_finger_pose_job *job);
/* Earlier names, kept for one release (docs/architecture.md: jobs are lb_<name>_job_*). */
#define lb_finger_pose_validate lb_finger_pose_job_validate
#define lb_finger_pose_run lb_finger_pose_job_run

/* ---- per world (registerGripPose) -------------------------------------------------- */
typedef struct lb_world lb_world;
/* Parses `json` (format above) and adds or replaces `name` in the world's registry. The
 * world's last error names the key path on failure; nothing changes then. Codes as
 * lb_grip_pose_parse_json and lb_grip_pose_registry_set, LB_ERR_OUT_OF_MEMORY,
 * LB_ERR_INVALID_ARGUMENT when a finger pose (lb_world_register_finger_pose) has the name (one
 * namespace for both kinds). Poses in use by components take effect at the next step. */
lb_result lb_world_register_grip_pose(lb_world *world, const char *name, const char *json,
                                      size_t len);
/* The named pose (user first, then built-in) as JSON, `by_joint` → gripPoseByJoint form.
 * Buffer contract as lb_grip_pose_write_json (LB_ERR_CAPACITY + *needed when short).
 * LB_ERR_UNKNOWN_NAME when no pose has that name. */
lb_result lb_world_grip_pose_json(lb_world *world, const char *name, bool by_joint, char *buf,
                                  size_t cap, size_t *needed);
/* A pose given as JSON (registerGripPose format) written back as JSON, `by_joint` → the
 * per-joint form. Same buffer contract; parse errors are recorded on the world. */
lb_result lb_world_grip_pose_convert(lb_world *world, const char *json, size_t len, bool by_joint,
                                     char *buf, size_t cap, size_t *needed);

#ifdef __cplusplus
}
#endif
#endif
