#include "CGPS.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

typedef int (*devicesim_gps_unpack_function)(char *, struct gps_data_t *);

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static devicesim_gps_unpack_function unpack_function;
static char load_error[512];

/// The names tried in order: the library this header's API version was released with (its soname,
/// what the linker recorded when the driver linked libgps), then the development link that comes
/// with the header.
static const char *const library_names[] = {
#if defined(__APPLE__)
    "libgps.dylib",
#else
#if GPSD_API_MAJOR_VERSION == 11
    "libgps.so.28",  // gpsd 3.22
#endif
    "libgps.so",
#endif
};

static void load(void) {
    size_t used = 0;
    for (size_t index = 0; index < sizeof library_names / sizeof library_names[0]; index++) {
        void *library = dlopen(library_names[index], RTLD_NOW | RTLD_LOCAL);
        if (library == NULL) {
            const char *why = dlerror();
            int written = snprintf(load_error + used, sizeof load_error - used, "%s%s", used > 0 ? "; " : "", why ? why : library_names[index]);
            if (written > 0) used = used + (size_t)written < sizeof load_error ? used + (size_t)written : sizeof load_error - 1;
            continue;
        }
        void *symbol = dlsym(library, "gps_unpack");
        if (symbol == NULL) {
            snprintf(load_error, sizeof load_error, "%s has no gps_unpack", library_names[index]);
            dlclose(library);
            return;
        }
        unpack_function = (devicesim_gps_unpack_function)symbol;
        return;
    }
}

int devicesim_libgps_load(char *message, size_t capacity) {
    pthread_once(&load_once, load);
    if (unpack_function != NULL) return 0;
    if (message != NULL && capacity > 0) snprintf(message, capacity, "%s", load_error);
    return -1;
}

int devicesim_gps_unpack(char *line, struct gps_data_t *data) {
    return unpack_function(line, data);
}
