/* Environment interaction (module "interact"): a walking character rests a hand on nearby
 * walls. The EnvironmentInteraction component (limber/components.h) holds the settings and
 * the readable outputs; this header documents the rules and gives C names to its enums.
 *
 * Each step (Reach phase, after TwoBoneIK constraints, before Grip):
 *  - Detection: an oriented box on the root (rotation = the root's). Side = the
 *    CharacterController's height when the entity has one (the applied one), else `height`;
 *    centre (0, side/2 + boxRaise*side, boxForward*side) in the root frame, i.e. a
 *    cube raised 25 % and pushed 50 % forward; `boxSize` overrides the extents. Only colliders
 *    whose layer & interactableLayers != 0 and that overlap the box count.
 *  - Probe: (root x, root y + shoulder height, root z); the shoulder height is measured once,
 *    on the first step (the mean of both upper-arm joints above the root), so the walking bob
 *    does not move the hand. Closest point = the nearest surface point of the counted
 *    colliders to the probe; normal = out of the wall there.
 *  - Side: the shoulder (upper-arm joint) nearer the closest point, chosen when Search engages
 *    a wall and kept until that wall is let go (one wall at a time: a lane narrower than the
 *    wingspan never flips sides); leaving the wall frees the side. A hand whose character
 *    holds something with it (GripHolder main hand; the support hand when the profile has a
 *    support anchor) is never used.
 *  - Target: the wall point closest to the probe pushed back toward the shoulder by
 *    `handOffset`; the palm centre is sent there with the palm facing the wall (palm +Y = -normal,
 *    fingers up and forward along the wall), by the core's two-bone arm IK (the grip module's
 *    arm reach, one TwoBoneIK job per step). The touching hand's fingers open flat (toward the
 *    rig's rest pose, by the arm's weight) unless the character has a GripPose, which then
 *    shapes both hands in the Grip phase.
 *
 * States (lb_interact_state):
 *  Search   no wall. Engages (-> Approach) when a counted wall's target is within
 *           engageReach x arm length of the nearer shoulder and minSwitchSeconds have passed.
 *  Approach the arm weight rises as the wall nears: goal = 1 at engageReach, 0 at releaseReach.
 *           -> Rise when the weight is 1 (after minSwitchSeconds).
 *  Rise     the hand lifts from hip height (rise 0) to shoulder height (rise 1) on the wall.
 *           -> Touch at rise 1.
 *  Touch    the planted hand slides after the character at slideSpeed; when the hand is
 *           farther than stretchLimit x arm length from the shoulder or lags lagLimit m behind
 *           it (along the walking direction), it re-plants replantAhead m ahead of the
 *           shoulder's wall point, moving along the wall at maxHandSpeed.
 *  Reset    weights ease to 0, the hand stays where it was; -> Search at 0 (side freed).
 *  Approach, Rise and Touch release (-> Reset, at once) when the wall leaves the box, its
 *  target is beyond releaseReach x arm length (release distance > engage distance), the
 *  hand becomes busy, or `enabled` is 0.
 *
 * Bounds per step of length dt (checked by tests/c/test_interact.c):
 *  |d weight| <= dt / blendSeconds and |d rise| <= dt / blendSeconds for both arms;
 *  |d target| <= maxHandSpeed * dt. Reset therefore ends within blendSeconds (+ 1 step).
 *
 * Deterministic: + - * / and sqrt, fixed iteration order, no allocation in a step.
 */
#ifndef LIMBER_INTERACT_H
#define LIMBER_INTERACT_H

#include "limber/components.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum lb_interact_state {
  LB_INTERACT_SEARCH = 0,
  LB_INTERACT_APPROACH = 1,
  LB_INTERACT_RISE = 2,
  LB_INTERACT_TOUCH = 3,
  LB_INTERACT_RESET = 4,
} lb_interact_state;

typedef enum lb_interact_side {
  LB_INTERACT_SIDE_NONE = 0,
  LB_INTERACT_SIDE_RIGHT = 1,
  LB_INTERACT_SIDE_LEFT = 2,
} lb_interact_side;

/* Colliders one detection box considers, at most (the nearest of the first this many in
 * entity order count). */
#define LB_INTERACT_MAX_CANDIDATES 32

#ifdef __cplusplus
}
#endif
#endif
