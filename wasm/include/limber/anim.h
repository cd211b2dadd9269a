/* Animation layer, part one: clip data, sampling, blending and root motion as ozz-style jobs
 * (plain structs of inputs and outputs, a validate and a run function). Nothing here
 * allocates or reads a clock; the caller owns every buffer, and a clip is a set of pointers
 * into the caller's arrays. Everything is float and uses only the lb_* math (no libm).
 *
 * Units: time in seconds, translation in metres, rotation as unit quaternions (x, y, z, w),
 * angles in radians, scale as a per-axis factor.
 *
 * Joints are indexed 0..joint_count-1 in depth-first order (every parent precedes its
 * children), as in limber/rig.h.
 */
#ifndef LIMBER_ANIM_H
#define LIMBER_ANIM_H

#include "limber/base.h"
#include "limber/math.h"
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- clip data ------------------------------------------------------------------------------ */

typedef enum lb_interp {
  /* lerp for vectors; for rotations, normalised lerp on the shorter arc, or slerp between
   * two keys more than 8 degrees apart. nlerp deviates from slerp by at most about
   * 1.22e-6 deg times arc^3 (arc between the keys in degrees): <= 6.3e-4 deg at the 8 deg limit;
   * measured 6.2e-4 deg on the 30 Hz mannequin clips (tests/c/test_anim.c). Which of the two a
   * segment uses depends only on its keys, so the output is continuous in time. */
  LB_INTERP_LINEAR = 0,
  LB_INTERP_STEP = 1,       /* hold the previous key until the next key time */
  LB_INTERP_CUBICSPLINE = 2 /* glTF cubic spline: not supported yet, rejected with
                               LB_ERR_INVALID_ARGUMENT by validate and by the jobs */
} lb_interp;

/* One channel of one joint. count == 0 means "no track": the joint keeps the rest pose's
 * value for this channel. Otherwise times holds count strictly ascending finite seconds in
 * [0, duration] and values holds count * 3 floats (translation, scale: x y z per key) or
 * count * 4 floats (rotation: x y z w per key). */
typedef struct lb_track {
  uint32_t count;
  const float *times;
  const float *values;
  lb_interp interp; /* default (zero) LB_INTERP_LINEAR */
} lb_track;

typedef struct lb_joint_tracks {
  lb_track translation; /* vec3 keys, metres */
  lb_track rotation;    /* quat keys x y z w; unit length within 1e-3 (|q|^2 in [0.999, 1.001]) */
  lb_track scale;       /* vec3 keys */
} lb_joint_tracks;

/* A clip: joints[j] animates joint j for j < joint_count (joints beyond keep the rest pose). */
typedef struct lb_clip {
  float duration;                /* seconds, finite and > 0 */
  uint32_t joint_count;          /* >= 1 */
  const lb_joint_tracks *joints; /* joint_count entries */
} lb_clip;

/* Tracks per clip as the sampling cursor counts them: 3 per joint (translation, rotation,
 * scale, in that order). 0 for a null clip. */
uint32_t lb_clip_track_count(const lb_clip *clip);

/* Checks everything once (run it when the clip is loaded; the jobs only re-check structure):
 * LB_OK, or
 *  LB_ERR_INVALID_ARGUMENT  null clip/joints, joint_count 0, a track with count > 0 and a
 *                           null times/values pointer, an unknown or CUBICSPLINE interp;
 *  LB_ERR_NOT_FINITE        duration, a key time or a key value is NaN or +-Inf;
 *  LB_ERR_OUT_OF_RANGE      duration <= 0, times not strictly ascending or outside
 *                           [0, duration], a rotation key not unit length (see above);
 *  LB_ERR_DEGENERATE        a zero rotation key. */
lb_result lb_clip_validate(const lb_clip *clip);

/* ---- reduction at import ------------------------------------------------------------------- */

/* Makes near-constant tracks constant: every key of a track whose motion moves no point of the
 * skeleton by more than `tolerance` is set to its first key, bit for bit, and the samplers copy
 * a segment whose two keys are bitwise equal instead of interpolating it (the fingers of a
 * walk cycle that hold one pose, a spine that barely breathes). Key counts and times stay, so
 * a clip keeps its shared key grid (lb_clip_frames).
 *
 * The error is measured, not estimated: after a pass the original and reduced clips are
 * sampled at every key time of every track and posed through the skeleton (lb_transform_mul
 * from the roots), and the largest distance between the two, at each joint and at
 * `skin_distance` along each joint's x, y and z axes (where a mesh skinned to a leaf joint
 * ends), must be <= tolerance; otherwise the per-track budget is halved and the pass redone
 * from the original keys (12 times at most, then the clip is left as it was). Between key
 * times a constant track stays within its keys' spread, so the bound holds there too.
 * Run once at import (lb_gltf_import and lb_world_add_clip do); it allocates scratch. */
typedef struct lb_clip_reduce_job {
  /* inputs */
  /* The clip to reduce in place: its tracks' values must point to writable memory (the
   * importer's own copy). Must pass lb_clip_validate. */
  const lb_clip *clip;
  const int16_t *parents;        /* the skeleton: joint_count parents, -1 = root, parents first */
  const lb_transform *rest;      /* joint_count local rest transforms (joints without tracks) */
  uint32_t joint_count;          /* >= clip->joint_count, <= LB_MAX_JOINTS */
  float tolerance;               /* metres, [0, 1]; default 1e-4 (0.1 mm); 0 keeps every key */
  float skin_distance;           /* metres, [0, 100]; default 0.1 */
  const lb_allocator *allocator; /* scratch; null: malloc/free */
  /* outputs */
  uint32_t track_count;     /* tracks with keys */
  uint32_t constant_before; /* tracks whose keys were all equal already */
  uint32_t constant_count;  /* tracks whose keys are all equal now */
  float error; /* metres: the largest measured position difference the reduction made */
} lb_clip_reduce_job;

/* What a reduction did to one clip (the job's outputs, kept with clip assets). */
typedef struct lb_clip_reduction {
  uint32_t track_count;     /* tracks with keys */
  uint32_t constant_tracks; /* tracks whose keys are all equal: the file's own and the reduced */
  float error;              /* metres: the largest position change measured */
  /* glTF import only (0 otherwise): CUBICSPLINE tracks resampled to LINEAR keys, the
   * tolerance used (lb_gltf_def.cubic_tolerance) and the largest deviation between those keys
   * and the file's curve measured while resampling (metres, scale units or quaternion
   * components; <= the tolerance unless a key span hit the 1024 sub-span limit). */
  uint32_t cubic_tracks;
  float cubic_tolerance;
  float cubic_error;
} lb_clip_reduction;

lb_clip_reduce_job lb_clip_reduce_default_job(void);
/* The job's outputs as an lb_clip_reduction. */
lb_clip_reduction lb_clip_reduce_job_result(const lb_clip_reduce_job *job);
/* LB_OK, or LB_ERR_INVALID_ARGUMENT (null clip/parents/rest, joint_count 0, below the clip's
 * or above LB_MAX_JOINTS, a parent not before its child), LB_ERR_NOT_FINITE (tolerance,
 * skin_distance), LB_ERR_OUT_OF_RANGE (tolerance or skin_distance outside its range), or what
 * lb_clip_validate says of the clip. */
lb_result lb_clip_reduce_job_validate(const lb_clip_reduce_job *job);
/* Validates, then reduces; LB_ERR_OUT_OF_MEMORY leaves the clip as it was. */
lb_result lb_clip_reduce_job_run(lb_clip_reduce_job *job);

/* ---- sampling ------------------------------------------------------------------------------ */

/* Per-instance playback hint: for each track, the key index found last time. The caller owns
 * `keys` (at least lb_clip_track_count(clip) entries). The cursor is only a hint: any content
 * gives the same, bit-identical result as a fresh binary search. Forward playback advances in
 * O(1) amortised; a backward seek (time before the remembered key) falls back to a binary
 * search. Zero-fill (lb_sample_cursor_reset) when switching clips, for speed only. */
typedef struct lb_sample_cursor {
  uint32_t *keys;
  uint32_t capacity; /* entries in keys */
} lb_sample_cursor;

void lb_sample_cursor_reset(lb_sample_cursor *cursor);

/* Time convention.
 *  loop == false: time is clamped to [0, duration]; before a track's first key the first key
 *    holds, after its last key the last key holds.
 *  loop == true: time wraps into [0, duration) (negative times wrap too; duration itself
 *    maps to 0). Between a track's last key and duration + its first key the track
 *    interpolates from the last key to the first key (the clip is treated as a cycle, so
 *    there is no seam). A clip that stores a final key at duration equal to its first key
 *    (the glTF habit) loops the same way. STEP tracks hold the last key through that span.
 *  At an exact key time the output is bit-equal to the key value. */
/* A clip's rotation keys laid out for four-wide sampling: when every rotation track of a
 * clip is LINEAR on one shared key grid (a baked clip: glTF exports, the generated clips),
 * key k of four tracks sits in 16 consecutive floats (x x x x, y y y y, z..., w...), so a
 * sampler interpolates four joints per SIMD operation (SSE2 natively, wasm simd128) after
 * one key search. Sampling with frames gives the same bits as without (each lane runs the
 * scalar sampler's operations in its order). Created once per clip, read-only after. */
typedef struct lb_clip_frames lb_clip_frames;

/* LB_OK and *out, or LB_ERR_INVALID_ARGUMENT (null arguments; the clip's rotation tracks are
 * not all LINEAR on bit-identical key times, or it has none: sample it without frames),
 * LB_ERR_OUT_OF_MEMORY. The clip must have passed lb_clip_validate and outlive the frames.
 * `allocator` may be null (malloc/free). */
lb_result lb_clip_frames_create(const lb_clip *clip, const lb_allocator *allocator,
                                lb_clip_frames **out);
void lb_clip_frames_destroy(lb_clip_frames *frames); /* null is ignored */
/* Bytes the frames hold (for reports). */
size_t lb_clip_frames_size(const lb_clip_frames *frames);

typedef struct lb_sample_job {
  /* inputs */
  const lb_clip *clip; /* must have passed lb_clip_validate */
  /* optional: lb_clip_frames_create(clip) for faster sampling, same output; frames made for
   * another clip are ignored */
  const lb_clip_frames *frames;
  float time;               /* seconds, finite; with loop, |time| <= 2^24 * duration */
  bool loop;                /* default false */
  lb_sample_cursor *cursor; /* optional (null: binary search every track) */
  const lb_transform *rest; /* joint_count transforms for joints/channels without tracks */
  uint32_t joint_count;     /* >= clip->joint_count */
  /* output */
  lb_transform *output; /* joint_count local transforms; may not alias rest */
} lb_sample_job;

/* LB_OK, or LB_ERR_INVALID_ARGUMENT (null clip/rest/output, joint_count < clip->joint_count or
 * 0, cursor capacity < track count or null keys, null track pointers, unsupported interp,
 * output aliasing rest), LB_ERR_NOT_FINITE (time, duration), LB_ERR_OUT_OF_RANGE (duration
 * <= 0, a looping time beyond 2^24 loops). Key contents are not re-checked (that is
 * lb_clip_validate's job). */
lb_result lb_sample_job_validate(const lb_sample_job *job);
/* Validates, then samples; on error the output and cursor are untouched. */
lb_result lb_sample_job_run(lb_sample_job *job);

/* ---- blending ------------------------------------------------------------------------------ */

/* A layer of local poses. weight >= 0 (finite); joint_weights optional (null = 1 for every
 * joint), else joint_count finite values >= 0 (usually in [0, 1]) that multiply weight. */
typedef struct lb_blend_layer {
  const lb_transform *pose; /* joint_count local transforms */
  float weight;
  const float *joint_weights;
} lb_blend_layer;

/* An additive layer: weight and joint_weights in [0, 1]. Applies weight * (pose - reference)
 * on top of the blended result:
 *  translation t += w * (pose.t - reference.t)
 *  rotation    r  = normalize(slerp(identity, pose.r * conj(reference.r), w) * r)
 *  scale       s += w * (pose.s - reference.s)
 * where w = weight * joint_weights[j]. A joint with w == 0 is left bit-identical. */
typedef struct lb_additive_layer {
  const lb_transform *pose;
  const lb_transform *reference; /* the pose the additive was authored against */
  float weight;
  const float *joint_weights;
} lb_additive_layer;

/* Per joint j, normal layers: w_i = weight_i * joint_weights_i[j]; layers with w_i == 0 are
 * skipped. If sum w_i <= threshold the joint takes rest[j]; otherwise translation and scale
 * are sum(w_i * x_i) / sum(w_i) and the rotation is sum(+-w_i * q_i) normalised, each q_i
 * negated when its dot with the first contributing layer's q is negative (one hemisphere).
 * Then the additive layers apply in order. */
typedef struct lb_blend_job {
  /* inputs */
  const lb_blend_layer *layers; /* layer_count entries (may be 0: the rest pose) */
  uint32_t layer_count;
  const lb_additive_layer *additive; /* additive_count entries */
  uint32_t additive_count;
  const lb_transform *rest; /* joint_count transforms */
  uint32_t joint_count;     /* >= 1 */
  float threshold;          /* total weight at or below which rest is used; default 1e-6 */
  /* output */
  lb_transform *output; /* joint_count transforms; may not alias any input pose */
} lb_blend_job;

/* Zero-initialised job with threshold 1e-6. */
lb_blend_job lb_blend_default_job(void);
/* LB_OK, or LB_ERR_INVALID_ARGUMENT (null pointers where entries are promised, joint_count
 * 0, output aliasing an input), LB_ERR_NOT_FINITE (a weight, joint weight or threshold),
 * LB_ERR_OUT_OF_RANGE (a negative weight, joint weight or threshold; an additive weight or
 * joint weight above 1). Poses are not checked for NaN (they come from the sampling job). */
lb_result lb_blend_job_validate(const lb_blend_job *job);
/* Validates, then blends; on error the output is untouched. */
lb_result lb_blend_job_run(lb_blend_job *job);

/* ---- sampling and blending in one pass ------------------------------------------------------ */

/* lb_sample_job_run of every layer's sample job, then lb_blend_job_run of their outputs with
 * `weights` (no joint weights, no additive layers) into `output`: the same bits. When the
 * layers with a weight > 0 all have frames (lb_clip_frames) animating the same joints'
 * rotations, they are sampled and blended four joints at a time in registers, without
 * writing their poses (ozz-animation runs its sampling and blending jobs over SoA locals;
 * here the intermediate poses are never stored). Otherwise the jobs run one after the other.
 * Either way the samples' outputs are scratch: afterwards their contents are unspecified. */
typedef struct lb_sample_blend_job {
  /* inputs */
  lb_sample_job *samples; /* layer_count jobs, rest and joint_count equal to this job's */
  const float *weights;   /* layer_count weights, finite, >= 0 */
  uint32_t layer_count;   /* 1 .. LB_SAMPLE_BLEND_MAX_LAYERS */
  const lb_transform *rest;
  uint32_t joint_count;
  float threshold; /* as lb_blend_job: total weight at or below which rest is used (1e-6) */
  /* optional: each sampled local transform of joint `adjust_joint` of a layer with a weight
   * > 0 passes through adjust(user, layer, local) before the blend (the Animator takes the
   * root motion out of the root joint there) */
  void (*adjust)(void *user, uint32_t layer, lb_transform *local);
  void *adjust_user;
  uint32_t adjust_joint;
  /* output */
  lb_transform *output; /* joint_count transforms; may not alias rest or a sample's output */
} lb_sample_blend_job;

#define LB_SAMPLE_BLEND_MAX_LAYERS 8u

/* Zero-initialised job with threshold 1e-6. */
lb_sample_blend_job lb_sample_blend_default_job(void);
/* LB_OK, or what lb_sample_job_validate returns for a sample job, LB_ERR_INVALID_ARGUMENT
 * (null pointers, layer_count 0 or above the maximum, a sample whose rest or joint_count
 * differs, aliasing outputs, adjust_joint >= joint_count with adjust set), LB_ERR_NOT_FINITE /
 * LB_ERR_OUT_OF_RANGE (a weight or the threshold, as lb_blend_job_validate). */
lb_result lb_sample_blend_job_validate(const lb_sample_blend_job *job);
/* Validates, then samples and blends; on error the output and cursors are untouched. */
lb_result lb_sample_blend_job_run(lb_sample_blend_job *job);

/* Mask helper: out[j] = inside for `joint` and all its descendants, outside for every other
 * joint. parents[j] is j's parent (-1 for a root) and must be < j, with joints in
 * depth-first order so a subtree is the contiguous range [joint, end).
 * LB_OK, or LB_ERR_INVALID_ARGUMENT (null pointers, joint >= joint_count, a parent >= its
 * child or < -1), LB_ERR_NOT_FINITE (inside/outside). */
lb_result lb_mask_subtree(const int16_t *parents, uint32_t joint_count, uint32_t joint,
                          float inside, float outside, float *out);

/* ---- root motion --------------------------------------------------------------------------- */

/* The root's motion frame at a clip time s: its local translation (y zeroed unless
 * `vertical`) and its yaw about +Y (heading of the rotated +Z axis, atan2(f.x, f.z)), both
 * sampled WITHOUT the loop wrap segment (so the clip's own end-minus-start displacement
 * counts). With loop on, time t0 or t1 = k * duration + s is the frame after k whole loops:
 * each loop applies the clip's start-to-end motion once more, so the trajectory is continuous
 * at the seam and never unwinds. With loop off, times are clamped to [0, duration].
 *
 * Output: the motion from t0 to t1 expressed in the character frame at t0 (translation
 * rotated into t0's heading; yaw in (-pi, pi], so steps of more than half a turn alias).
 * A host moving a character applies, per step: position += R_y(heading) * translation;
 * heading += yaw. t1 < t0 (reverse playback) gives the inverse motion. */
typedef struct lb_root_motion_job {
  /* inputs */
  const lb_clip *clip; /* must have passed lb_clip_validate */
  uint32_t root_joint; /* < clip->joint_count; default 0 */
  float t0, t1;        /* seconds, finite; |t / duration| <= 2^24 */
  bool loop;           /* default false */
  bool vertical;       /* include the Y translation; default false (XZ only) */
  /* Keep the root's yaw in the pose (default false): for clips that do not turn overall
   * (a walk whose hips sway left and right), yaw is not extracted, the output yaw is 0
   * and the translation is in the clip's own frame, so the sway does not steer the path. */
  bool bake_yaw;
  /* Optional (null: a binary search per sample): a cursor of this clip, e.g. the one its
   * lb_sample_job uses (the root's keys near t1 are the ones that job samples next). A hint
   * only, as for the sample job: the result is bit-identical with any content. */
  lb_sample_cursor *cursor;
  /* outputs */
  vec3 translation; /* metres, in the character frame at t0 */
  float yaw;        /* radians about +Y, (-pi, pi] */
} lb_root_motion_job;

/* Yaw of the root from the clip's start to its end, radians in (-pi, pi] (0 without a
 * rotation track): how much one loop turns the character. */
float lb_clip_root_turn(const lb_clip *clip, uint32_t root_joint);

/* LB_OK, or LB_ERR_INVALID_ARGUMENT (null clip, root_joint out of the clip, an unsupported
 * interp on the root joint's tracks: the only tracks the job reads, cursor capacity < track
 * count or null keys), LB_ERR_NOT_FINITE (t0, t1, duration), LB_ERR_OUT_OF_RANGE (duration
 * <= 0, a time beyond 2^24 loops). */
lb_result lb_root_motion_job_validate(const lb_root_motion_job *job);
/* Validates, then computes; on error the outputs are untouched. */
lb_result lb_root_motion_job_run(lb_root_motion_job *job);

#ifdef __cplusplus
}
#endif
#endif
