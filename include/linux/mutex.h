/*
 * linux/mutex.h - struct mutex, DEFINE_MUTEX(), mutex_init(),
 * mutex_lock(), mutex_trylock(), mutex_unlock(), mutex_is_locked()
 * (include/mutex.h).
 */
#ifndef LINUX_MUTEX_H
#define LINUX_MUTEX_H

#include "../mutex.h"

#endif
