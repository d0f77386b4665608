#if canImport(Glibc)
    import Glibc
#endif

/// The C library's idea of local time, which C libraries' log lines use.
enum LocalTime {
    /// Reads the time zone now, while files can still be opened: glibc reads it once, and with `TZ` set
    /// never looks again.
    static func load() {
        tzset()
    }
}
