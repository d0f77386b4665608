#ifndef CSQLITESHIMS_H
#define CSQLITESHIMS_H

// Why this shim exists: sqlite3_bind_text must be told to copy the text (SQLITE_TRANSIENT), and
// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
// The shim forwards and decides nothing.

#include <sqlite3.h>

/// sqlite3_bind_text with SQLITE_TRANSIENT: SQLite copies the bytes before the call returns.
int vs_bind_text(sqlite3_stmt *statement, int index, const char *text, int length);

#endif
