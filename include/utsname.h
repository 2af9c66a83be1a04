/*
 * utsname.h - what uname() answers (Linux's struct new_utsname, six
 * strings of 65 bytes; include/uapi/linux/utsname.h).
 */
#ifndef UTSNAME_H
#define UTSNAME_H

#define __NEW_UTS_LEN	64

struct new_utsname {
	char sysname[__NEW_UTS_LEN + 1];
	char nodename[__NEW_UTS_LEN + 1];
	char release[__NEW_UTS_LEN + 1];
	char version[__NEW_UTS_LEN + 1];
	char machine[__NEW_UTS_LEN + 1];
	char domainname[__NEW_UTS_LEN + 1];
};

/*
 * "Linux": the ABI a program talks to (docs/busybox.md says why).  The
 * release is the Linux whose calls this kernel follows; the version
 * names this kernel; the names are Linux's defaults for a machine
 * nobody named (UTS_NODENAME "(none)").
 */
#define UTS_SYSNAME	"Linux"
#define UTS_NODENAME	"(none)"
#define UTS_RELEASE	"6.1.0-kprobes-i386"
#define UTS_VERSION	"#1 SMP kprobes-i386 teaching kernel"
#define UTS_MACHINE	"i686"
#define UTS_DOMAINNAME	"(none)"

#endif
