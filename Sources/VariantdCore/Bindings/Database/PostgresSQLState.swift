/// What a PostgreSQL error's SQLSTATE tells the queue about trying again.
enum PostgresSQLState {
    /// Another try on the same session can succeed: 40001 serialization failure, 40P01 deadlock,
    /// 55P03 lock not available.
    static func isBusy(_ state: String) -> Bool {
        ["40001", "40P01", "55P03"].contains(state)
    }

    /// The server behind the address cannot take the queue's writes now, whatever the statement: it is a
    /// standby not yet promoted (25006 read-only transaction, as during a fail-over), shutting down (57P01
    /// administrator command, 57P02 crash of another process), still starting (57P03), or the connection
    /// failed (class 08). The session is of no further use: the server that takes the writes after a
    /// fail-over or a restart is reached only through a new connection to the address.
    static func meansServerUnavailable(_ state: String) -> Bool {
        state.hasPrefix("08") || ["25006", "57P01", "57P02", "57P03"].contains(state)
    }
}
