#ifndef DEVICESIM_CGPS_H
#define DEVICESIM_CGPS_H

// libgps's types come from its header; its code is loaded only when a live gpsd connection is made
// (devicesim_libgps_load), so that an executable linking the gpsd driver does not load libgps and
// what it brings (D-Bus, systemd, libgcrypt) at every start.
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

/// Loads libgps (once per process; later calls return the first call's result). Returns 0 when it is
/// loaded and has `gps_unpack`; otherwise -1, with the dynamic loader's message in `message` (at most
/// `capacity` bytes, NUL-terminated). Thread-safe.
int devicesim_libgps_load(char *message, size_t capacity);

/// libgps's `gps_unpack`: decodes one JSON report into `data`. Call only after
/// `devicesim_libgps_load` returned 0.
int devicesim_gps_unpack(char *line, struct gps_data_t *data);

#endif
