/*
 * probe_sweep.h - probe every instruction of the kernel, batch by batch,
 * and compare everything the workloads compute with an unprobed run
 * (tests/kernel/probe_sweep.c).
 */
#ifndef PROBE_SWEEP_H
#define PROBE_SWEEP_H

#include "ktest.h"

/*
 * Sweep the kernel's functions (not the tests'): those the workloads
 * execute always, and every sample_every-th of the others (1: all).
 */
void probe_sweep(struct ktest *t, unsigned int sample_every);

/*
 * The same four ways on one site per function: every function's call
 * site (its first byte, the fentry nop), the one place where
 * kprobes.ftrace changes what a probe is - an ftrace callback or an int3.
 */
void probe_sweep_entries(struct ktest *t);

#endif
