// A folder of files in memory and the SQLite VFS that reads and writes them (see SQLiteMemoryFiles.h).
//
// The VFS answers SQLite as the unix VFS answers it for a file on a local disk, so SQLite writes the
// same bytes into a file here as it would on disk: the same sector size (4096) and device
// characteristics (power-safe overwrite), a file of no bytes reported as absent by xAccess (a
// truncated journal is not hot), short reads padded with zeros, and locks between the connections of
// one process (SHARED, RESERVED, PENDING, EXCLUSIVE). It has no shared memory (no WAL) and no memory
// mapping: version 1 of the I/O methods.
//
// A file is kept in chunks of 4096 bytes (a page of the database), each without its longest run of
// zeros: a device's database is a few pages that are mostly free space, so it takes a few hundred
// bytes a page instead of 4096. A chunk of zeros takes nothing.
#include "SQLiteMemoryFiles.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

typedef struct memory_handle memory_handle;

enum { CHUNK = 4096 };

/// 4096 bytes of a file: its first `head` bytes and last `tail` bytes, zeros between.
typedef struct chunk {
    uint16_t head;
    uint16_t tail;
    unsigned char bytes[];   // the head's bytes, then the tail's
} chunk;

typedef struct memory_file {
    char *name;              // NULL for an anonymous (temporary) file
    chunk **chunks;          // NULL where the chunk is all zeros; bytes past `size` are zeros
    int64_t chunk_count;
    int64_t size;
    int64_t position;        // in the folder's list; -1 once removed from the folder
    int handles;             // SQLite handles open on it
    int shared;              // handles holding SHARED or more
    memory_handle *writer;   // the handle holding RESERVED, PENDING or EXCLUSIVE
    int writer_level;
} memory_file;

struct memory_handle {
    sqlite3_file base;
    devicesim_memory_folder *folder;
    memory_file *file;
    int lock;
    int delete_on_close;
};

struct devicesim_memory_folder {
    sqlite3_vfs vfs;             // first: SQLite's vfs pointer is the folder
    sqlite3_vfs *system;         // the default VFS, for randomness and time
    char vfs_name[64];
    pthread_mutex_t mutex;
    memory_file **files;         // every file of the folder, in no order
    int64_t count;
    int64_t files_capacity;
    memory_file **table;         // open addressing by name; TOMBSTONE where one was removed
    int64_t table_capacity;      // a power of two
    int64_t table_used;          // live and tombstone slots
};

static memory_file tombstone_file;
#define TOMBSTONE (&tombstone_file)

// MARK: - The folder's files

static uint64_t hash_name(const char *name) {
    uint64_t hash = 1469598103934665603ULL;
    for (const unsigned char *c = (const unsigned char *)name; *c; c++) { hash ^= *c; hash *= 1099511628211ULL; }
    return hash;
}

/// The slot of `name` in the table, or -1.
static int64_t find_slot(devicesim_memory_folder *folder, const char *name) {
    if (folder->table_capacity == 0) return -1;
    int64_t mask = folder->table_capacity - 1;
    for (int64_t slot = (int64_t)(hash_name(name) & (uint64_t)mask);; slot = (slot + 1) & mask) {
        memory_file *file = folder->table[slot];
        if (file == NULL) return -1;
        if (file != TOMBSTONE && strcmp(file->name, name) == 0) return slot;
    }
}

static memory_file *find(devicesim_memory_folder *folder, const char *name) {
    int64_t slot = find_slot(folder, name);
    return slot < 0 ? NULL : folder->table[slot];
}

static int grow_table(devicesim_memory_folder *folder) {
    int64_t capacity = folder->table_capacity == 0 ? 64 : folder->table_capacity;
    while (folder->count * 2 >= capacity) capacity *= 2;
    memory_file **table = calloc((size_t)capacity, sizeof *table);
    if (table == NULL) return -1;
    for (int64_t index = 0; index < folder->count; index++) {
        memory_file *file = folder->files[index];
        int64_t slot = (int64_t)(hash_name(file->name) & (uint64_t)(capacity - 1));
        while (table[slot] != NULL) slot = (slot + 1) & (capacity - 1);
        table[slot] = file;
    }
    free(folder->table);
    folder->table = table;
    folder->table_capacity = capacity;
    folder->table_used = folder->count;
    return 0;
}

/// Adds `file` (named, not in the folder) to the folder.
static int link_file(devicesim_memory_folder *folder, memory_file *file) {
    if (folder->count == folder->files_capacity) {
        int64_t capacity = folder->files_capacity == 0 ? 64 : folder->files_capacity * 2;
        memory_file **files = realloc(folder->files, (size_t)capacity * sizeof *files);
        if (files == NULL) return -1;
        folder->files = files;
        folder->files_capacity = capacity;
    }
    if ((folder->table_used + 1) * 2 > folder->table_capacity && grow_table(folder) != 0) return -1;
    int64_t mask = folder->table_capacity - 1;
    int64_t slot = (int64_t)(hash_name(file->name) & (uint64_t)mask);
    while (folder->table[slot] != NULL && folder->table[slot] != TOMBSTONE) slot = (slot + 1) & mask;
    if (folder->table[slot] == NULL) folder->table_used++;
    folder->table[slot] = file;
    file->position = folder->count;
    folder->files[folder->count++] = file;
    return 0;
}

static void free_file(memory_file *file) {
    for (int64_t index = 0; index < file->chunk_count; index++) free(file->chunks[index]);
    free(file->chunks);
    free(file->name);
    free(file);
}

/// Takes `file` out of the folder (its handles keep it).
static void detach_file(devicesim_memory_folder *folder, memory_file *file) {
    int64_t slot = find_slot(folder, file->name);
    if (slot >= 0) folder->table[slot] = TOMBSTONE;
    memory_file *last = folder->files[--folder->count];
    folder->files[file->position] = last;
    last->position = file->position;
    file->position = -1;
}

/// Takes `file` out of the folder; it is freed now, or when its last handle closes.
static void unlink_file(devicesim_memory_folder *folder, memory_file *file) {
    detach_file(folder, file);
    if (file->handles == 0) free_file(file);
}

static memory_file *new_file(const char *name) {
    memory_file *file = calloc(1, sizeof *file);
    if (file == NULL) return NULL;
    file->position = -1;
    if (name != NULL) {
        file->name = strdup(name);
        if (file->name == NULL) {
            free(file);
            return NULL;
        }
    }
    return file;
}

/// The 4096 bytes of `stored` into `out`.
static void expand(const chunk *stored, unsigned char *out) {
    if (stored == NULL) {
        memset(out, 0, CHUNK);
        return;
    }
    memcpy(out, stored->bytes, stored->head);
    memset(out + stored->head, 0, (size_t)(CHUNK - stored->head - stored->tail));
    memcpy(out + CHUNK - stored->tail, stored->bytes + stored->head, stored->tail);
}

/// Bit `i` of `zero_words[i / 64]` set when the 8-byte word `i` of the chunk (4096 bytes) is all zeros.
static void find_zero_words(const unsigned char *bytes, uint64_t zero_words[CHUNK / 512]) {
    for (int64_t group = 0; group < CHUNK / 512; group++) {
        uint64_t flags = 0;
        for (int64_t block = 0; block < 8; block++) {
            const unsigned char *start = bytes + group * 512 + block * 64;
            uint64_t byte_zero;   // bit k: byte k of the 64 is zero
#if defined(__SSE2__)
            __m128i zero = _mm_setzero_si128();
            __m128i v0 = _mm_loadu_si128((const __m128i *)start), v1 = _mm_loadu_si128((const __m128i *)(start + 16));
            __m128i v2 = _mm_loadu_si128((const __m128i *)(start + 32)), v3 = _mm_loadu_si128((const __m128i *)(start + 48));
            // Most of a device's page is free space: 64 bytes of zeros are told by one test.
            __m128i any = _mm_or_si128(_mm_or_si128(v0, v1), _mm_or_si128(v2, v3));
            if (_mm_movemask_epi8(_mm_cmpeq_epi8(any, zero)) == 0xffff) {
                flags |= (uint64_t)0xff << (block * 8);
                continue;
            }
            uint64_t m0 = (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v0, zero));
            uint64_t m1 = (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v1, zero));
            uint64_t m2 = (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v2, zero));
            uint64_t m3 = (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v3, zero));
            byte_zero = m0 | m1 << 16 | m2 << 32 | m3 << 48;
#else
            byte_zero = 0;
            for (int64_t word = 0; word < 8; word++) {
                uint64_t value;
                memcpy(&value, start + word * 8, 8);
                if (value == 0) byte_zero |= (uint64_t)0xff << (word * 8);
            }
#endif
            // Bit 8j: bytes 8j...8j+7 are all zero; then those bits gathered into one byte.
            uint64_t all = byte_zero & byte_zero >> 1;
            all &= all >> 2;
            all &= all >> 4;
            uint64_t word_zero = ((all & 0x0101010101010101ULL) * 0x0102040810204080ULL) >> 56;
            flags |= word_zero << (block * 8);
        }
        zero_words[group] = flags;
    }
}

/// The first bit at or after `from` (of 512) that is `value` in `words`; 512 when none.
static int64_t next_bit(const uint64_t words[CHUNK / 512], int64_t from, int value) {
    int64_t index = from / 64;
    if (index >= CHUNK / 512) return CHUNK / 8;
    uint64_t current = (value ? words[index] : ~words[index]) & (~0ULL << (from % 64));
    while (current == 0) {
        if (++index == CHUNK / 512) return CHUNK / 8;
        current = value ? words[index] : ~words[index];
    }
    return index * 64 + __builtin_ctzll(current);
}

/// `bytes` (4096 of them) kept without their longest run of zeros: the first of the longest runs of
/// whole 8-byte words of zeros (the words' zero flags found 64 bytes at a time, the runs by counting
/// bits), widened byte by byte. NULL when all are zeros, or when memory fails (`*failed` set then).
static chunk *compact(const unsigned char *bytes, int *failed) {
    uint64_t zero_words[CHUNK / 512];
    find_zero_words(bytes, zero_words);
    int64_t best_start = 0, best_end = 0;
    for (int64_t word = next_bit(zero_words, 0, 1); word < CHUNK / 8;) {
        int64_t end = next_bit(zero_words, word, 0);
        if (end - word > best_end - best_start) {
            best_start = word;
            best_end = end;
        }
        word = end < CHUNK / 8 ? next_bit(zero_words, end, 1) : end;
    }
    best_start *= 8;
    best_end *= 8;
    if (best_start == 0 && best_end == CHUNK) return NULL;
    while (best_start > 0 && bytes[best_start - 1] == 0) best_start--;
    while (best_end < CHUNK && bytes[best_end] == 0) best_end++;
    if (best_end - best_start < 16) best_start = best_end = CHUNK;
    int64_t tail = CHUNK - best_end;
    chunk *stored = malloc(sizeof(chunk) + (size_t)(best_start + tail));
    if (stored == NULL) {
        *failed = 1;
        return NULL;
    }
    stored->head = (uint16_t)best_start;
    stored->tail = (uint16_t)tail;
    memcpy(stored->bytes, bytes, (size_t)best_start);
    memcpy(stored->bytes + best_start, bytes + best_end, (size_t)tail);
    return stored;
}

/// Makes room for `count` chunks (new ones all zeros).
static int reserve_chunks(memory_file *file, int64_t count) {
    if (count <= file->chunk_count) return 0;
    chunk **chunks = realloc(file->chunks, (size_t)count * sizeof *chunks);
    if (chunks == NULL) return -1;
    memset(chunks + file->chunk_count, 0, (size_t)(count - file->chunk_count) * sizeof *chunks);
    file->chunks = chunks;
    file->chunk_count = count;
    return 0;
}

/// The `count` bytes at `from` of the chunk `stored` (NULL: all zeros) into `out`, taken from its head,
/// its zeros and its tail without expanding the whole chunk (SQLite reads a few bytes of a page, such
/// as the change counter, at the start of every transaction).
static void expand_range(const chunk *stored, unsigned char *out, int64_t from, int64_t count) {
    if (stored == NULL) {
        memset(out, 0, (size_t)count);
        return;
    }
    int64_t end = from + count, zeros_end = CHUNK - stored->tail;
    if (from < stored->head) {
        int64_t part = (end < stored->head ? end : stored->head) - from;
        memcpy(out, stored->bytes + from, (size_t)part);
        out += part;
        from += part;
    }
    if (from < end && from < zeros_end) {
        int64_t part = (end < zeros_end ? end : zeros_end) - from;
        memset(out, 0, (size_t)part);
        out += part;
        from += part;
    }
    if (from < end) memcpy(out, stored->bytes + stored->head + (from - zeros_end), (size_t)(end - from));
}

/// Copies `count` bytes at `offset` (all within the file) into `out`.
static void read_bytes(const memory_file *file, unsigned char *out, int64_t count, int64_t offset) {
    while (count > 0) {
        int64_t index = offset / CHUNK, within = offset % CHUNK;
        int64_t part = CHUNK - within < count ? CHUNK - within : count;
        const chunk *stored = index < file->chunk_count ? file->chunks[index] : NULL;
        if (part == CHUNK) {
            expand(stored, out);
        } else {
            expand_range(stored, out, within, part);
        }
        out += part;
        offset += part;
        count -= part;
    }
}

static int write_bytes(memory_file *file, const void *bytes, int64_t count, int64_t offset) {
    if (count <= 0) {
        if (offset > file->size) file->size = offset;
        return reserve_chunks(file, (file->size + CHUNK - 1) / CHUNK);
    }
    if (reserve_chunks(file, (offset + count + CHUNK - 1) / CHUNK) != 0) return -1;
    const unsigned char *source = bytes;
    unsigned char scratch[CHUNK];
    int failed = 0;
    while (count > 0) {
        int64_t index = offset / CHUNK, within = offset % CHUNK;
        int64_t part = CHUNK - within < count ? CHUNK - within : count;
        chunk *stored;
        if (part == CHUNK) {
            stored = compact(source, &failed);
        } else {
            expand(file->chunks[index], scratch);
            memcpy(scratch + within, source, (size_t)part);
            stored = compact(scratch, &failed);
        }
        if (failed) return -1;
        free(file->chunks[index]);
        file->chunks[index] = stored;
        source += part;
        offset += part;
        count -= part;
    }
    if (offset > file->size) file->size = offset;
    return 0;
}

/// Cuts the file to `size` bytes, or grows it with zeros.
static void truncate_bytes(memory_file *file, int64_t size) {
    if (size >= file->size) {
        if (reserve_chunks(file, (size + CHUNK - 1) / CHUNK) == 0) file->size = size;
        return;
    }
    int64_t kept = (size + CHUNK - 1) / CHUNK;
    for (int64_t index = kept; index < file->chunk_count; index++) free(file->chunks[index]);
    file->chunk_count = kept;
    if (kept == 0) {
        free(file->chunks);
        file->chunks = NULL;
    }
    if (size % CHUNK != 0 && file->chunks[kept - 1] != NULL) {
        // Bytes past the end are zeros, so a file grown again reads zeros there.
        unsigned char scratch[CHUNK];
        int failed = 0;
        expand(file->chunks[kept - 1], scratch);
        memset(scratch + size % CHUNK, 0, (size_t)(CHUNK - size % CHUNK));
        chunk *stored = compact(scratch, &failed);
        if (!failed) {
            free(file->chunks[kept - 1]);
            file->chunks[kept - 1] = stored;
        }
    }
    file->size = size;
}

/// The bytes of memory the file's contents take.
static int64_t stored_bytes(const memory_file *file) {
    int64_t bytes = file->chunk_count * (int64_t)sizeof(chunk *);
    for (int64_t index = 0; index < file->chunk_count; index++) {
        if (file->chunks[index] != NULL) bytes += (int64_t)sizeof(chunk) + file->chunks[index]->head + file->chunks[index]->tail;
    }
    return bytes;
}

// MARK: - The I/O methods

static int io_close(sqlite3_file *base) {
    memory_handle *handle = (memory_handle *)base;
    devicesim_memory_folder *folder = handle->folder;
    pthread_mutex_lock(&folder->mutex);
    memory_file *file = handle->file;
    if (handle->lock >= SQLITE_LOCK_SHARED) file->shared--;
    if (file->writer == handle) file->writer = NULL;
    file->handles--;
    if (handle->delete_on_close && file->position >= 0) unlink_file(folder, file);
    else if (file->position < 0 && file->handles == 0) free_file(file);
    handle->file = NULL;
    pthread_mutex_unlock(&folder->mutex);
    return SQLITE_OK;
}

static int io_read(sqlite3_file *base, void *buffer, int amount, sqlite3_int64 offset) {
    memory_handle *handle = (memory_handle *)base;
    pthread_mutex_lock(&handle->folder->mutex);
    memory_file *file = handle->file;
    int64_t available = offset >= file->size ? 0 : file->size - offset;
    int rc = SQLITE_OK;
    if (available >= amount) {
        read_bytes(file, buffer, amount, offset);
    } else {
        if (available > 0) read_bytes(file, buffer, available, offset);
        memset((unsigned char *)buffer + available, 0, (size_t)(amount - available));
        rc = SQLITE_IOERR_SHORT_READ;
    }
    pthread_mutex_unlock(&handle->folder->mutex);
    return rc;
}

static int io_write(sqlite3_file *base, const void *buffer, int amount, sqlite3_int64 offset) {
    memory_handle *handle = (memory_handle *)base;
    pthread_mutex_lock(&handle->folder->mutex);
    int rc = write_bytes(handle->file, buffer, amount, offset) == 0 ? SQLITE_OK : SQLITE_IOERR_NOMEM;
    pthread_mutex_unlock(&handle->folder->mutex);
    return rc;
}

static int io_truncate(sqlite3_file *base, sqlite3_int64 size) {
    memory_handle *handle = (memory_handle *)base;
    pthread_mutex_lock(&handle->folder->mutex);
    truncate_bytes(handle->file, size);
    pthread_mutex_unlock(&handle->folder->mutex);
    return SQLITE_OK;
}

static int io_sync(sqlite3_file *base, int flags) {
    (void)base;
    (void)flags;
    return SQLITE_OK;
}

static int io_file_size(sqlite3_file *base, sqlite3_int64 *size) {
    memory_handle *handle = (memory_handle *)base;
    pthread_mutex_lock(&handle->folder->mutex);
    *size = handle->file->size;
    pthread_mutex_unlock(&handle->folder->mutex);
    return SQLITE_OK;
}

/// As the unix VFS locks between connections of one process: SHARED while no other handle holds
/// PENDING or EXCLUSIVE; RESERVED while no other holds RESERVED or more; EXCLUSIVE through PENDING,
/// once no other handle holds SHARED (a handle left PENDING keeps new readers out).
static int io_lock(sqlite3_file *base, int level) {
    memory_handle *handle = (memory_handle *)base;
    if (handle->lock >= level) return SQLITE_OK;
    pthread_mutex_lock(&handle->folder->mutex);
    memory_file *file = handle->file;
    int rc = SQLITE_OK;
    int others_writing = file->writer != NULL && file->writer != handle;
    if (level == SQLITE_LOCK_SHARED) {
        if (others_writing && file->writer_level >= SQLITE_LOCK_PENDING) {
            rc = SQLITE_BUSY;
        } else {
            file->shared++;
            handle->lock = SQLITE_LOCK_SHARED;
        }
    } else if (others_writing) {
        rc = SQLITE_BUSY;
    } else if (level == SQLITE_LOCK_RESERVED) {
        file->writer = handle;
        file->writer_level = SQLITE_LOCK_RESERVED;
        handle->lock = SQLITE_LOCK_RESERVED;
    } else {
        file->writer = handle;
        file->writer_level = SQLITE_LOCK_PENDING;
        handle->lock = SQLITE_LOCK_PENDING;
        if (file->shared > 1) {
            rc = SQLITE_BUSY;
        } else {
            file->writer_level = SQLITE_LOCK_EXCLUSIVE;
            handle->lock = SQLITE_LOCK_EXCLUSIVE;
        }
    }
    pthread_mutex_unlock(&handle->folder->mutex);
    return rc;
}

static int io_unlock(sqlite3_file *base, int level) {
    memory_handle *handle = (memory_handle *)base;
    if (handle->lock <= level) return SQLITE_OK;
    pthread_mutex_lock(&handle->folder->mutex);
    memory_file *file = handle->file;
    if (file->writer == handle) file->writer = NULL;
    if (level == SQLITE_LOCK_NONE && handle->lock >= SQLITE_LOCK_SHARED) file->shared--;
    handle->lock = level;
    pthread_mutex_unlock(&handle->folder->mutex);
    return SQLITE_OK;
}

static int io_check_reserved_lock(sqlite3_file *base, int *reserved) {
    memory_handle *handle = (memory_handle *)base;
    pthread_mutex_lock(&handle->folder->mutex);
    *reserved = handle->file->writer != NULL;
    pthread_mutex_unlock(&handle->folder->mutex);
    return SQLITE_OK;
}

static int io_file_control(sqlite3_file *base, int operation, void *argument) {
    (void)base;
    (void)argument;
    if (operation == SQLITE_FCNTL_VFSNAME) {
        *(char **)argument = sqlite3_mprintf("%s", ((memory_handle *)base)->folder->vfs_name);
        return SQLITE_OK;
    }
    return SQLITE_NOTFOUND;
}

static int io_sector_size(sqlite3_file *base) {
    (void)base;
    return 4096;
}

static int io_device_characteristics(sqlite3_file *base) {
    (void)base;
    return SQLITE_IOCAP_POWERSAFE_OVERWRITE;
}

static const sqlite3_io_methods io_methods = {
    .iVersion = 1,
    .xClose = io_close,
    .xRead = io_read,
    .xWrite = io_write,
    .xTruncate = io_truncate,
    .xSync = io_sync,
    .xFileSize = io_file_size,
    .xLock = io_lock,
    .xUnlock = io_unlock,
    .xCheckReservedLock = io_check_reserved_lock,
    .xFileControl = io_file_control,
    .xSectorSize = io_sector_size,
    .xDeviceCharacteristics = io_device_characteristics,
};

int devicesim_memory_folder_retarget(devicesim_memory_folder *folder, struct sqlite3 *db, const char *name) {
    sqlite3_file *base = NULL;
    if (sqlite3_file_control(db, "main", SQLITE_FCNTL_FILE_POINTER, &base) != SQLITE_OK || base == NULL) return -1;
    if (base->pMethods != &io_methods) return -1;
    memory_handle *handle = (memory_handle *)base;
    if (handle->folder != folder || handle->lock != SQLITE_LOCK_NONE) return -1;
    pthread_mutex_lock(&folder->mutex);
    memory_file *target = find(folder, name);
    int rc = -1;
    if (target != NULL) {
        memory_file *current = handle->file;
        if (target != current) {
            target->handles++;
            current->handles--;
            if (current->position < 0 && current->handles == 0) free_file(current);
            handle->file = target;
        }
        rc = 0;
    }
    pthread_mutex_unlock(&folder->mutex);
    return rc;
}

// MARK: - The VFS

static int vfs_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *base, int flags, int *out_flags) {
    devicesim_memory_folder *folder = (devicesim_memory_folder *)vfs;
    memory_handle *handle = (memory_handle *)base;
    memset(handle, 0, sizeof *handle);
    pthread_mutex_lock(&folder->mutex);
    memory_file *file = name == NULL ? NULL : find(folder, name);
    int rc = SQLITE_OK;
    if (file != NULL && (flags & SQLITE_OPEN_EXCLUSIVE)) {
        rc = SQLITE_CANTOPEN;
    } else if (file == NULL) {
        if (name != NULL && !(flags & SQLITE_OPEN_CREATE)) {
            rc = SQLITE_CANTOPEN;
        } else if ((file = new_file(name)) == NULL) {
            rc = SQLITE_NOMEM;
        } else if (name != NULL && link_file(folder, file) != 0) {
            free_file(file);
            rc = SQLITE_NOMEM;
        }
    }
    if (rc == SQLITE_OK) {
        file->handles++;
        handle->base.pMethods = &io_methods;
        handle->folder = folder;
        handle->file = file;
        handle->delete_on_close = (flags & SQLITE_OPEN_DELETEONCLOSE) != 0;
        if (out_flags) *out_flags = flags;
    }
    pthread_mutex_unlock(&folder->mutex);
    return rc;
}

static int vfs_delete(sqlite3_vfs *vfs, const char *name, int sync_folder) {
    (void)sync_folder;
    return devicesim_memory_folder_remove((devicesim_memory_folder *)vfs, name) == 0 ? SQLITE_OK : SQLITE_IOERR_DELETE_NOENT;
}

static int vfs_access(sqlite3_vfs *vfs, const char *name, int flags, int *result) {
    (void)flags;
    // As unix: a file of no bytes does not exist (a journal truncated to nothing is not hot).
    *result = devicesim_memory_folder_size((devicesim_memory_folder *)vfs, name) > 0;
    return SQLITE_OK;
}

static int vfs_full_pathname(sqlite3_vfs *vfs, const char *name, int count, char *out) {
    (void)vfs;
    if ((int)strlen(name) >= count) return SQLITE_CANTOPEN;
    strcpy(out, name);
    return SQLITE_OK;
}

static int vfs_randomness(sqlite3_vfs *vfs, int count, char *out) {
    sqlite3_vfs *system = ((devicesim_memory_folder *)vfs)->system;
    return system->xRandomness(system, count, out);
}

static int vfs_sleep(sqlite3_vfs *vfs, int microseconds) {
    sqlite3_vfs *system = ((devicesim_memory_folder *)vfs)->system;
    return system->xSleep(system, microseconds);
}

static int vfs_current_time(sqlite3_vfs *vfs, double *now) {
    sqlite3_vfs *system = ((devicesim_memory_folder *)vfs)->system;
    return system->xCurrentTime(system, now);
}

static int vfs_current_time_int64(sqlite3_vfs *vfs, sqlite3_int64 *now) {
    sqlite3_vfs *system = ((devicesim_memory_folder *)vfs)->system;
    return system->xCurrentTimeInt64(system, now);
}

static int vfs_last_error(sqlite3_vfs *vfs, int count, char *out) {
    (void)vfs;
    if (count > 0) out[0] = 0;
    return 0;
}

// MARK: - The folder, from outside SQLite

devicesim_memory_folder *devicesim_memory_folder_create(void) {
    if (sqlite3_initialize() != SQLITE_OK) return NULL;
    sqlite3_vfs *system = sqlite3_vfs_find(NULL);
    if (system == NULL || system->iVersion < 2) return NULL;
    devicesim_memory_folder *folder = calloc(1, sizeof *folder);
    if (folder == NULL) return NULL;
    pthread_mutex_init(&folder->mutex, NULL);
    folder->system = system;
    snprintf(folder->vfs_name, sizeof folder->vfs_name, "devicesim-memory-%p", (void *)folder);
    folder->vfs = (sqlite3_vfs){
        .iVersion = 2,
        .szOsFile = sizeof(memory_handle),
        .mxPathname = 4096,
        .zName = folder->vfs_name,
        .xOpen = vfs_open,
        .xDelete = vfs_delete,
        .xAccess = vfs_access,
        .xFullPathname = vfs_full_pathname,
        .xRandomness = vfs_randomness,
        .xSleep = vfs_sleep,
        .xCurrentTime = vfs_current_time,
        .xGetLastError = vfs_last_error,
        .xCurrentTimeInt64 = vfs_current_time_int64,
    };
    if (sqlite3_vfs_register(&folder->vfs, 0) != SQLITE_OK) {
        pthread_mutex_destroy(&folder->mutex);
        free(folder);
        return NULL;
    }
    return folder;
}

void devicesim_memory_folder_destroy(devicesim_memory_folder *folder) {
    if (folder == NULL) return;
    sqlite3_vfs_unregister(&folder->vfs);
    for (int64_t index = 0; index < folder->count; index++) {
        memory_file *file = folder->files[index];
        file->position = -1;
        if (file->handles == 0) free_file(file);
    }
    free(folder->files);
    free(folder->table);
    pthread_mutex_destroy(&folder->mutex);
    free(folder);
}

const char *devicesim_memory_folder_vfs_name(const devicesim_memory_folder *folder) {
    return folder->vfs_name;
}

int64_t devicesim_memory_folder_size(devicesim_memory_folder *folder, const char *name) {
    pthread_mutex_lock(&folder->mutex);
    memory_file *file = find(folder, name);
    int64_t size = file == NULL ? -1 : file->size;
    pthread_mutex_unlock(&folder->mutex);
    return size;
}

int64_t devicesim_memory_folder_read(devicesim_memory_folder *folder, const char *name, void *buffer, int64_t capacity, int64_t offset) {
    pthread_mutex_lock(&folder->mutex);
    memory_file *file = find(folder, name);
    int64_t count = -1;
    if (file != NULL) {
        int64_t available = offset < file->size ? file->size - offset : 0;
        count = available < capacity ? available : capacity;
        if (count > 0) read_bytes(file, buffer, count, offset);
    }
    pthread_mutex_unlock(&folder->mutex);
    return count;
}

int devicesim_memory_folder_replace(devicesim_memory_folder *folder, const char *name, const void *bytes, int64_t count) {
    pthread_mutex_lock(&folder->mutex);
    memory_file *file = find(folder, name);
    int rc = 0;
    if (file == NULL) {
        file = new_file(name);
        if (file == NULL || link_file(folder, file) != 0) {
            if (file != NULL) free_file(file);
            rc = -1;
        }
    }
    if (rc == 0) {
        truncate_bytes(file, 0);
        if (count > 0) rc = write_bytes(file, bytes, count, 0);
    }
    pthread_mutex_unlock(&folder->mutex);
    return rc;
}

int devicesim_memory_folder_write(devicesim_memory_folder *folder, const char *name, const void *bytes, int64_t count, int64_t offset) {
    pthread_mutex_lock(&folder->mutex);
    memory_file *file = find(folder, name);
    int rc = file == NULL ? -1 : write_bytes(file, bytes, count, offset);
    pthread_mutex_unlock(&folder->mutex);
    return rc;
}

int devicesim_memory_folder_remove(devicesim_memory_folder *folder, const char *name) {
    pthread_mutex_lock(&folder->mutex);
    memory_file *file = find(folder, name);
    if (file != NULL) unlink_file(folder, file);
    pthread_mutex_unlock(&folder->mutex);
    return file == NULL ? -1 : 0;
}

int devicesim_memory_folder_rename(devicesim_memory_folder *folder, const char *from, const char *to) {
    pthread_mutex_lock(&folder->mutex);
    memory_file *file = find(folder, from);
    int rc = -1;
    if (file != NULL && strcmp(from, to) == 0) {
        rc = 0;
    } else if (file != NULL) {
        char *name = strdup(to);
        if (name != NULL) {
            memory_file *replaced = find(folder, to);
            if (replaced != NULL) unlink_file(folder, replaced);
            // Out under its old name, in under the new one (linking cannot fail: a slot was just freed
            // and the list has room for the file it held).
            detach_file(folder, file);
            free(file->name);
            file->name = name;
            rc = link_file(folder, file);
        }
    }
    pthread_mutex_unlock(&folder->mutex);
    return rc;
}

int64_t devicesim_memory_folder_count(devicesim_memory_folder *folder) {
    pthread_mutex_lock(&folder->mutex);
    int64_t count = folder->count;
    pthread_mutex_unlock(&folder->mutex);
    return count;
}

const char *devicesim_memory_folder_name_at(devicesim_memory_folder *folder, int64_t index) {
    pthread_mutex_lock(&folder->mutex);
    const char *name = index >= 0 && index < folder->count ? folder->files[index]->name : NULL;
    pthread_mutex_unlock(&folder->mutex);
    return name;
}

int64_t devicesim_memory_folder_bytes(devicesim_memory_folder *folder) {
    pthread_mutex_lock(&folder->mutex);
    int64_t bytes = 0;
    for (int64_t index = 0; index < folder->count; index++) bytes += stored_bytes(folder->files[index]);
    pthread_mutex_unlock(&folder->mutex);
    return bytes;
}
