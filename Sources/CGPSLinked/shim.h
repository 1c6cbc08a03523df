#ifndef DEVICESIM_CGPS_SHIM_H
#define DEVICESIM_CGPS_SHIM_H

// The module CGPS where libgps is linked (macOS with Homebrew's gpsd, whose header pkg-config finds):
// the same functions as Sources/CGPS (Linux), where libgps is loaded only at the first connection.
#include <gps.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>

/// `UNION_SET` is a multi-line macro that Swift does not import.
static inline gps_mask_t devicesim_union_set(void) { return UNION_SET; }

/// `errno` as a function, for Swift.
static inline int devicesim_errno(void) { return errno; }

/// The `error` member of the anonymous union, as a C string.
static inline const char *devicesim_error_message(const struct gps_data_t *data) { return data->error; }

/// libgps is linked: always 0.
static inline int devicesim_libgps_load(char *message, size_t capacity) { (void)message; (void)capacity; return 0; }

/// libgps's `gps_unpack`: decodes one JSON report into `data`.
static inline int devicesim_gps_unpack(char *line, struct gps_data_t *data) { return gps_unpack(line, data); }

#endif
