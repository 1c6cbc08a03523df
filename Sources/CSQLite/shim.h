#include <sqlite3.h>

/// Turns off SQLite's memory statistics (sqlite3_config is variadic, which Swift cannot call).
/// With them on, every allocation SQLite makes takes one mutex shared by the whole process, so
/// threads writing separate databases wait on each other. Only works before SQLite is initialized
/// (SQLITE_MISUSE after).
static inline int devicesim_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

/// Makes each connection's page cache take memory a page at a time, as pages are read, instead of
/// a block of 20 pages (about 86 KB) allocated and cleared at every open. A device's database has a
/// handful of pages, so an open connection costs about 40 KB instead of about 105 KB, and reopening
/// one (the connection pool closes idle ones) no longer allocates and clears that block.
/// Only works before SQLite is initialized (SQLITE_MISUSE after).
static inline int devicesim_sqlite3_page_cache_on_demand(void) {
    return sqlite3_config(SQLITE_CONFIG_PAGECACHE, (void *)0, 0, 0);
}
