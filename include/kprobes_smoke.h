/*
 * kprobes_smoke.h - the boot-time "Kprobe smoke test" (probes/kprobes_smoke.c):
 * a kprobe, a jprobe and a kretprobe fired on real kernel routines, one
 * line printed.  kmain() runs it unless the command line says nosmoke.
 */
#ifndef KPROBES_SMOKE_H
#define KPROBES_SMOKE_H

/* 0 if every probe fired and saw what it should; else a negative errno. */
int init_test_probes(void);

#endif
