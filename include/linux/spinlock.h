/*
 * linux/spinlock.h - spinlock_t, DEFINE_SPINLOCK(), spin_lock_init(),
 * spin_lock()/spin_unlock(), the _irq and _irqsave forms and
 * spin_trylock(), with Linux's names and meanings (include/spinlock.h).
 */
#ifndef LINUX_SPINLOCK_H
#define LINUX_SPINLOCK_H

#include "../spinlock.h"

#endif
