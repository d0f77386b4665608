/// Why the daemon could not start (the address is taken, the socket path cannot be bound, …).
struct StartupError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
