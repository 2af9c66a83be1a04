/* bench_sled.h - the shape of bench_sled.S (included by assembly too). */
#ifndef BENCH_SLED_H
#define BENCH_SLED_H

#define BENCH_SLED_FUNCS	1000
#define BENCH_SLED_NOPS		10	/* probe sites per function */
#define BENCH_SLED_FUNC_SIZE	(BENCH_SLED_NOPS + 1)	/* the nops and a ret */
#define BENCH_SLED_SITES	(BENCH_SLED_FUNCS * BENCH_SLED_NOPS)

#ifndef __ASSEMBLER__
extern const char bench_sled[], bench_sled_end[];
#endif

#endif
