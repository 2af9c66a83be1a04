/*
 * ring_buffer_page.c - Linux's binary ring-buffer page, the unit that
 * per_cpu/cpuN/trace_pipe_raw hands out (Linux's ring_buffer_read_page()
 * and struct buffer_data_page, kernel/trace/ring_buffer.c).
 *
 * Linux's ring buffer *is* a list of such pages: a writer appends
 * compressed records to the page at the tail, and trace_pipe_raw gives
 * the reader whole pages, which trace-cmd splice()s to a file without
 * copying a byte or formatting a line.  The tools decode the page with
 * nothing but events/header_page (the page's header), events/header_event
 * (a record's header) and each event's format file (its fields).
 *
 * This kernel's buffer is a ring of fixed-size struct trace_entry slots
 * (trace_buffer.c: a probe hit fills one slot with interrupts off and
 * no lock), so its records cannot be Linux's in place.  A page is built
 * when it is read: the CPU's oldest records are taken out of the buffer
 * one by one, each written as its event's format file describes
 * (trace_event_raw_record()) behind a Linux record header, until the
 * next one would not fit.  What the reader gets is byte for byte what
 * Linux's reader would get for the same records:
 *
 *   offset 0   u64 time_stamp   the clock at the first record
 *   offset 8   u32 commit       bytes of records in data[]; bit 31: records
 *                               were lost before this page, bit 30: their
 *                               count follows the last record
 *   offset 12  data[4084]       records, then zeroes:
 *       u32 type_len:5, time_delta:27   (time_delta: clock since the previous record)
 *       type_len 1..28: the record is type_len * 4 bytes, from array[0]
 *       type_len 0:     array[0] is its length + 4, the record from array[1]
 *       type_len 30:    a time extend: the delta is array[0] << 27 | time_delta,
 *                       for the record after it (whose time_delta is 0)
 *       type_len 29:    padding; type_len 31: an absolute time stamp
 */
#include "kernel.h"
#include "trace.h"
#include "trace_events.h"
#include "ring_buffer.h"
#include "mutex.h"
#include "string.h"
#include "errno.h"

/* Linux's RINGBUF_TYPE_* (include/linux/ring_buffer.h). */
enum {
	RINGBUF_TYPE_DATA_TYPE_LEN_MAX = 28,
	RINGBUF_TYPE_PADDING,
	RINGBUF_TYPE_TIME_EXTEND,
	RINGBUF_TYPE_TIME_STAMP,
};

#define RB_ALIGNMENT		4	/* every record is a whole number of u32s on i386 */
#define RB_EVNT_HDR_SIZE	4	/* type_len and time_delta */
#define RB_MAX_SMALL_DATA	(RB_ALIGNMENT * RINGBUF_TYPE_DATA_TYPE_LEN_MAX)
#define RB_LEN_TIME_EXTEND	8
#define TS_SHIFT		27	/* time_delta's bits */
#define TS_DELTA_TEST		((1ULL << TS_SHIFT) - 1)
#define RB_MISSED_EVENTS	(1U << 31)	/* records were lost before this page */
#define RB_MISSED_STORED	(1U << 30)	/* and their count is after the last record */
#define RAW_RECORD_MAX		1024	/* one record's fields: fetch values and strings */

/* The page being filled. */
struct page_fill {
	struct buffer_data_page *page;
	unsigned int commit;		/* bytes of data[] used */
	uint64_t last_ts;		/* the previous record's time */
	unsigned char rec[RAW_RECORD_MAX];
};

static struct page_fill fill;		/* rec[] is too big for a stack */
static DEFINE_MUTEX(fill_mutex);	/* one page is filled at a time */

static void put_u32(unsigned char *dst, uint32_t v)
{
	memcpy(dst, &v, sizeof(v));	/* i386 is little-endian, as the page is */
}

/* A record header: type_len in the low 5 bits, time_delta above (Linux's bitfield). */
static uint32_t rb_header(unsigned int type_len, uint32_t time_delta)
{
	return type_len | time_delta << 5;
}

/* Bytes a record of len bytes takes in the page, its header included. */
static unsigned int rb_event_size(unsigned int len)
{
	unsigned int data = ALIGN_UP(len ? len : 1, RB_ALIGNMENT);

	return RB_EVNT_HDR_SIZE + data + (data > RB_MAX_SMALL_DATA ? sizeof(uint32_t) : 0);
}

/* Put record rec[0..len) at data[commit] with time_delta delta (< 2^27). */
static void rb_put_event(struct page_fill *pf, const unsigned char *rec, unsigned int len,
			 uint32_t delta)
{
	unsigned char *p = pf->page->data + pf->commit;
	unsigned int data = ALIGN_UP(len ? len : 1, RB_ALIGNMENT);

	if (data > RB_MAX_SMALL_DATA) {		/* the length does not fit type_len */
		put_u32(p, rb_header(0, delta));
		put_u32(p + RB_EVNT_HDR_SIZE, data + sizeof(uint32_t));
		p += RB_EVNT_HDR_SIZE + sizeof(uint32_t);
	} else {
		put_u32(p, rb_header(data / RB_ALIGNMENT, delta));
		p += RB_EVNT_HDR_SIZE;
	}
	memcpy(p, rec, len);
	memset(p + len, 0, data - len);
	pf->commit += rb_event_size(len);
}

/*
 * Add one record if it fits (ring_buffer_consume_cpu()'s callback): 0
 * took it, 1 leaves it for the next page.  A record with no Linux
 * layout here is taken and left out of the page.
 */
static int page_add_record(const struct trace_entry *e, void *data)
{
	struct page_fill *pf = data;
	int len = trace_event_raw_record(e, pf->rec, sizeof(pf->rec));
	uint64_t delta;
	unsigned int need;

	if (len <= 0)
		return 0;
	if (pf->commit == 0) {
		pf->page->time_stamp = e->ts;	/* the first record's delta is 0 */
		pf->last_ts = e->ts;
	}
	/* Each CPU's clock only goes forward; a record stamped earlier gets 0. */
	delta = e->ts > pf->last_ts ? e->ts - pf->last_ts : 0;
	need = rb_event_size(len) + (delta > TS_DELTA_TEST ? RB_LEN_TIME_EXTEND : 0);
	if (pf->commit + need > BUF_PAGE_SIZE)
		return 1;
	if (delta > TS_DELTA_TEST) {		/* Linux's time extend */
		unsigned char *p = pf->page->data + pf->commit;

		put_u32(p, rb_header(RINGBUF_TYPE_TIME_EXTEND, delta & TS_DELTA_TEST));
		put_u32(p + RB_EVNT_HDR_SIZE, (uint32_t)(delta >> TS_SHIFT));
		pf->commit += RB_LEN_TIME_EXTEND;
		delta = 0;
	}
	rb_put_event(pf, pf->rec, len, (uint32_t)delta);
	pf->last_ts = e->ts;
	return 0;
}

/*
 * Say in the page's commit field that records were lost before it, and
 * how many where there is room after the last record (Linux's
 * ring_buffer_read_page() does the same).
 */
static void page_mark_lost(struct buffer_data_page *page, unsigned int commit,
			   unsigned long lost)
{
	uint32_t flags = RB_MISSED_EVENTS;

	if (BUF_PAGE_SIZE - commit >= sizeof(unsigned long)) {
		memcpy(page->data + commit, &lost, sizeof(lost));
		flags |= RB_MISSED_STORED;
	}
	page->commit = commit | flags;
}

/*
 * Fill page (PAGE_SIZE bytes) with CPU cpu's oldest records, taken out
 * of its buffer, or out of its snapshot buffer: the bytes of records in
 * it, or -EAGAIN if there was none (-ENODEV: no snapshot).
 */
int ring_buffer_read_page(struct trace_buffer *tb, int cpu, bool snapshot,
			  struct buffer_data_page *page)
{
	unsigned long lost;
	int ret;

	mutex_lock(&fill_mutex);
	memset(page, 0, PAGE_SIZE);
	fill.page = page;
	fill.commit = 0;
	ret = ring_buffer_consume_cpu(tb, cpu, snapshot, page_add_record, &fill);
	if (ret >= 0)
		ret = fill.commit ? (int)fill.commit : -EAGAIN;
	page->commit = fill.commit;
	if (ret > 0 && (lost = ring_buffer_lost_events(tb, cpu, snapshot)) != 0)
		page_mark_lost(page, fill.commit, lost);
	mutex_unlock(&fill_mutex);
	return ret;
}
