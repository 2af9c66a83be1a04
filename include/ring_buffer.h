/*
 * ring_buffer.h - Linux's binary ring-buffer page (include/linux/ring_buffer.h,
 * struct buffer_data_page of kernel/trace/ring_buffer.c): what
 * per_cpu/cpuN/trace_pipe_raw and snapshot_raw hand out, a page at a
 * time, as events/header_page describes it.  kernel/trace/ring_buffer_page.c
 * builds one from this kernel's records when it is read.
 */
#ifndef RING_BUFFER_H
#define RING_BUFFER_H

#include <stdint.h>
#include <stdbool.h>
#include <asm/page.h>

/* i386: an 8-byte time stamp and a 4-byte commit (local_t is a long). */
struct buffer_data_page {
	uint64_t time_stamp;		/* the clock at the page's first record */
	uint32_t commit;		/* bytes of records in data[], and the lost-records bits */
	unsigned char data[];
} __attribute__((packed));

#define BUF_PAGE_HDR_SIZE	12	/* offsetof(struct buffer_data_page, data) */
#define BUF_PAGE_SIZE		(PAGE_SIZE - BUF_PAGE_HDR_SIZE)	/* 4084: header_page's data size */

_Static_assert(sizeof(struct buffer_data_page) == BUF_PAGE_HDR_SIZE,
	       "header_page says data starts at offset 12");

struct trace_buffer;
/*
 * Fill page (PAGE_SIZE bytes) with CPU cpu's oldest records, taken out
 * of its buffer or its snapshot buffer: the bytes of records, -EAGAIN if
 * there was none, -ENODEV if there is no snapshot.
 */
int ring_buffer_read_page(struct trace_buffer *tb, int cpu, bool snapshot,
			  struct buffer_data_page *page);

#endif
