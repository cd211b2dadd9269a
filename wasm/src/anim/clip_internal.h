/* Shared between the scalar sampler (clip.c) and the four-wide one (clip_frames.c). */
#ifndef LIMBER_ANIM_CLIP_INTERNAL_H
#define LIMBER_ANIM_CLIP_INTERNAL_H

#include "limber/anim.h"

/* Rotation keys closer than 8 degrees (|dot| >= cos 4 deg) are nlerped, others slerped. */
#define LB_ANIM_NLERP_MIN_DOT 0.99756405f

/* The per-track structure (pointers, interpolation) and duration of a clip, no key contents. */
lb_result lb_clip_structure(const lb_clip *clip);
bool lb_clip_frames_match(const lb_clip_frames *f, const lb_clip *clip);
/* The track whose key times all rotation tracks share, and its joint. */
const lb_track *lb_clip_frames_grid(const lb_clip_frames *f, uint32_t *joint);
typedef struct lb_joint_lists {
  const uint16_t *translated;
  uint32_t translated_count;
  const uint16_t *scaled;
  uint32_t scaled_count;
  const uint16_t *unrotated; /* no rotation track: the rest rotation */
  uint32_t unrotated_count;
} lb_joint_lists;
/* Which joints have which tracks besides the rotations in the frames. */
const lb_joint_lists *lb_clip_frames_lists(const lb_clip_frames *f);
/* Writes output[j].r for every joint with a rotation track: key a (copy), or a -> b by u. */
void lb_clip_frames_sample(const lb_clip_frames *f, uint32_t a, uint32_t b, float u, bool copy,
                           lb_transform *output);

#endif
