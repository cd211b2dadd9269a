/* The grip lab's hold (assets/scenes/grip-lab.json without its timeline, as it starts): the
 * built-in 1.8 m humanoid holding the rifle in both hands, its wrap on. Shared by the
 * grip.character bench (tests/bench/bench_grip.c) and the contact check of that bench's hold
 * (tests/c/test_grip_contact.c), so that the test measures the hold the bench times. */
#ifndef LIMBER_TESTS_GRIP_LAB_FIXTURE_H
#define LIMBER_TESTS_GRIP_LAB_FIXTURE_H

#define LB_GRIP_LAB_HOLD                                                                           \
  "{\"assets\":{\"rigs\":{\"mannequin\":{\"builtin\":\"humanoid\",\"height\":1.8}}},"              \
  "\"entities\":["                                                                                 \
  "{\"name\":\"hero\",\"components\":{\"Transform\":{\"position\":[0,0,0]},"                       \
  "\"Rig\":{\"asset\":\"mannequin\"},\"GripPose\":{\"rightTrigger\":0},"                           \
  "\"GripHolder\":{\"held\":\"rifle\",\"mainHand\":\"Right\",\"placement\":\"Object\","            \
  "\"blendSeconds\":0.25}}},"                                                                      \
  "{\"name\":\"rifle\",\"components\":{\"Transform\":{\"position\":[-0.05,1.25,0.22]},"            \
  "\"GripProfile\":{\"mainAnchor\":\"gripAnchor\",\"supportAnchor\":\"foregripAnchor\","           \
  "\"mainPose\":\"pistol\",\"supportPose\":\"support\",\"hand\":\"Right\",\"mirror\":\"X\","       \
  "\"wrap\":true}}},"                                                                              \
  "{\"name\":\"gripAnchor\",\"components\":{\"Transform\":{\"parent\":\"rifle\","                  \
  "\"position\":[-0.03,-0.075,-0.04],\"rotation\":[0.223607,0.223607,-0.67082,0.67082]}}},"        \
  "{\"name\":\"foregripAnchor\",\"components\":{\"Transform\":{\"parent\":\"rifle\","              \
  "\"position\":[0.0,-0.055,0.16],\"rotation\":[0.0,-0.707107,0.0,0.707107]}}},"                   \
  "{\"name\":\"pistolGrip\",\"components\":{\"Transform\":{\"parent\":\"rifle\","                  \
  "\"position\":[0,-0.075,-0.04]},\"GripSurface\":{\"shape\":\"Cylinder\",\"direction\":\"Y\","    \
  "\"radius\":0.016,\"height\":0.11}}},"                                                           \
  "{\"name\":\"foregrip\",\"components\":{\"Transform\":{\"parent\":\"rifle\","                    \
  "\"position\":[0,-0.02,0.16]},\"GripSurface\":{\"shape\":\"Cylinder\",\"direction\":\"Z\","      \
  "\"radius\":0.022,\"height\":0.2}}},"                                                            \
  "{\"name\":\"receiver\",\"components\":{\"Transform\":{\"parent\":\"rifle\","                    \
  "\"position\":[0,0.0,0.1]},\"GripSurface\":{\"shape\":\"Box\",\"size\":[0.05,0.07,0.5]}}}"       \
  "]}"

#endif
