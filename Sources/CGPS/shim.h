#ifndef DEVICESIM_CGPS_SHIM_H
#define DEVICESIM_CGPS_SHIM_H

#include <gps.h>
#include <errno.h>
#include <string.h>

/// `UNION_SET` is a multi-line macro that Swift does not import.
static inline gps_mask_t devicesim_union_set(void) { return UNION_SET; }

/// `errno` as a function, for Swift.
static inline int devicesim_errno(void) { return errno; }

/// The `error` member of the anonymous union, as a C string.
static inline const char *devicesim_error_message(const struct gps_data_t *data) { return data->error; }

#endif
