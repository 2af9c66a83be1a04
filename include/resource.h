/*
 * resource.h - the limits getrlimit() reports (Linux's
 * include/uapi/asm-generic/resource.h) and prctl()'s options this
 * kernel knows (include/uapi/linux/prctl.h).
 */
#ifndef RESOURCE_H
#define RESOURCE_H

struct rlimit {
	unsigned long rlim_cur;
	unsigned long rlim_max;
};

#define RLIM_INFINITY	(~0UL)
#define RLIMIT_STACK	3
#define RLIMIT_NOFILE	7
#define RLIM_NLIMITS	16

#define PR_SET_NAME	15	/* the task's comm, 16 bytes */
#define PR_GET_NAME	16

/* Linux's struct robust_list_head on i386: three words (set_robust_list()'s len). */
#define ROBUST_LIST_HEAD_SIZE	12

/* Every process runs as root: there are no users here (kernel/sys.c). */
#define ROOT_UID	0
#define ROOT_GID	0

#endif
