#ifndef DEVICESIM_SQLITE_MEMORY_FILES_H
#define DEVICESIM_SQLITE_MEMORY_FILES_H

#include <stddef.h>
#include <stdint.h>

/// A folder of files kept in memory, with an SQLite VFS of its own that reads and writes them:
/// a database opened with that VFS (`sqlite3_open_v2(name, &db, flags, vfs_name)`) and its rollback
/// journal are files of the folder, named as SQLite names them (`walker.sqlite`,
/// `walker.sqlite-journal`). Locks work between the folder's connections as the unix VFS's do between
/// a process's connections. The folder's functions below read and change its files from outside SQLite.
/// The folder takes a mutex around every call: one folder may be used from any thread.
typedef struct devicesim_memory_folder devicesim_memory_folder;

/// A new empty folder and its VFS, registered with SQLite under a name of its own (not the default);
/// NULL when memory or registration fails.
devicesim_memory_folder *devicesim_memory_folder_create(void);
/// Unregisters the folder's VFS and frees its files. Every connection using it must be closed.
void devicesim_memory_folder_destroy(devicesim_memory_folder *folder);
/// The name of the folder's VFS, for `sqlite3_open_v2`.
const char *devicesim_memory_folder_vfs_name(const devicesim_memory_folder *folder);

/// The size of the file `name`, or -1 when there is none.
int64_t devicesim_memory_folder_size(devicesim_memory_folder *folder, const char *name);
/// Copies at most `capacity` bytes of `name` from `offset` on into `buffer`; returns how many were
/// copied (none from the end of the file on), or -1 when there is no such file.
int64_t devicesim_memory_folder_read(devicesim_memory_folder *folder, const char *name, void *buffer, int64_t capacity, int64_t offset);
/// Makes `name` hold exactly `count` bytes of `bytes` (created if it does not exist). 0, or -1 when
/// memory fails.
int devicesim_memory_folder_replace(devicesim_memory_folder *folder, const char *name, const void *bytes, int64_t count);
/// Writes `count` bytes at `offset` of an existing file (growing it, with zeros between when
/// `offset` is past its end). 0, or -1 when there is no such file or memory fails.
int devicesim_memory_folder_write(devicesim_memory_folder *folder, const char *name, const void *bytes, int64_t count, int64_t offset);
/// Removes `name` (a connection that has it open keeps reading and writing its bytes, as on unix).
/// 0, or -1 when there is no such file.
int devicesim_memory_folder_remove(devicesim_memory_folder *folder, const char *name);
/// Renames `from` to `to`, replacing a file named `to`. 0, or -1 when there is no file `from`.
int devicesim_memory_folder_rename(devicesim_memory_folder *folder, const char *from, const char *to);
/// How many files the folder has.
int64_t devicesim_memory_folder_count(devicesim_memory_folder *folder);
/// The name of the `index`th file (in no particular order; valid until the folder next changes), or
/// NULL past the end.
const char *devicesim_memory_folder_name_at(devicesim_memory_folder *folder, int64_t index);
/// The bytes of memory the folder's files take (their contents, rounded as they are kept).
int64_t devicesim_memory_folder_bytes(devicesim_memory_folder *folder);

struct sqlite3;
/// Points the main database file of the connection `db` (opened with this folder's VFS) at the
/// folder's existing file `name` instead of the file it reads and writes now, as if that file had
/// been renamed to the connection's file name (the connection's name, and so its journal's, is
/// unchanged). The connection must hold no lock on its file (no statement running, no transaction
/// open): SQLite then finds the file's change counter changed at its next read and reads the file
/// afresh. 0, or -1 when `db` is not a connection of this folder, holds a lock, or `name` is no
/// file of the folder.
int devicesim_memory_folder_retarget(devicesim_memory_folder *folder, struct sqlite3 *db, const char *name);

#endif
