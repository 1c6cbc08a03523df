#ifndef DEVICESIM_CPREFETCH_H
#define DEVICESIM_CPREFETCH_H

/// Asks the processor to start loading the cache line at `address` for reading, without waiting
/// for it (a hint: it never faults, and an invalid or null address is ignored).
///
/// Swift has no prefetch of its own; the scheduler uses this to start loading the objects of the
/// ticks a few places down a tick lane while it runs the current one, so that a fleet of thousands
/// of devices, whose state does not fit in the caches, does not wait on memory once per object.
static inline __attribute__((always_inline)) void devicesim_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif
