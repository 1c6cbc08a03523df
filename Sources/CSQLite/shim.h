#include <sqlite3.h>

/// Turns off SQLite's memory statistics (sqlite3_config is variadic, which Swift cannot call).
/// With them on, every allocation SQLite makes takes one mutex shared by the whole process, so
/// threads writing separate databases wait on each other. Only works before SQLite is initialized
/// (SQLITE_MISUSE after).
static inline int devicesim_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
