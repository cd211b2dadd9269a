/* Fingers of one hand: pose target → wrap onto surfaces → weight over the animation. */
#include "grip_internal.h"

void lb_grip_hand_fingers(lb_world *w, uint32_t s, lb_grip_hand *h, lb_hand_side side, bool driven,
                          const char *pose, float weight, float trigger, int object) {
  (void)w, (void)s, (void)h, (void)side, (void)driven, (void)pose, (void)weight, (void)trigger;
  (void)object;
}
