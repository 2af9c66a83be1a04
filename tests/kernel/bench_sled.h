/* bench_sled.h - the shape of bench_sled.S (included by assembly too). */
#ifndef BENCH_SLED_H
#define BENCH_SLED_H

/*
 * BENCH_SLED_FUNCS functions of BENCH_SLED_NOPS one-byte nops and a ret.
 * Each has BENCH_SLED_SITES_PER_FUNC probe sites, BENCH_SLED_SPACING
 * bytes apart: room for one 5-byte jump each, so every site can be
 * optimized even when all of them are probed.
 */
#define BENCH_SLED_FUNCS		2000
#define BENCH_SLED_SITES_PER_FUNC	5
#define BENCH_SLED_SPACING		5	/* RELATIVEJUMP_SIZE */
#define BENCH_SLED_NOPS		(BENCH_SLED_SITES_PER_FUNC * BENCH_SLED_SPACING)
#define BENCH_SLED_FUNC_SIZE	(BENCH_SLED_NOPS + 1)	/* the nops and a ret */
#define BENCH_SLED_SITES	(BENCH_SLED_FUNCS * BENCH_SLED_SITES_PER_FUNC)

#ifndef __ASSEMBLER__
extern const char bench_sled[], bench_sled_end[];
#endif

#endif
