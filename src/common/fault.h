/*
 * fault.h - named points where a test may have leakscope die: with
 * LEAKSCOPE_FAULT=NAME in its environment, leakscope kills itself with
 * SIGKILL when it reaches the point NAME (docs/attach.md lists them). The
 * tests of attach and detach use it to show that the process they work on
 * survives leakscope's death at every step.
 */
#ifndef LK_COMMON_FAULT_H
#define LK_COMMON_FAULT_H

#define LK_ENV_FAULT "LEAKSCOPE_FAULT"

void lk_fault_point(const char *name);

#endif
