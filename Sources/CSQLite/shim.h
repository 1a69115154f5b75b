#ifndef SWIPE_CSQLITE_SHIM_H
#define SWIPE_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a cast macro Swift cannot import; binding text and
/// blobs with it makes SQLite copy the bytes before the call returns.
static inline sqlite3_destructor_type swipe_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}
#endif
