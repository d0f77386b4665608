/// How long a client may take to send its request, so that clients trickling bytes cannot hold every
/// connection: the idle timeout alone never closes a connection that sends a byte a second.
///
/// A connection over either limit is closed without an answer and counted
/// (`variantd_slow_clients_total{phase}`).
struct ClientDeadlines: Sendable {
    /// Why a connection was closed.
    enum Phase: String, Sendable, CaseIterable {
        /// Its request head was not whole within `header`.
        case head
        /// Its body came slower than `minBodyRate`.
        case body
    }

    /// From the connection's opening (its first request) or the first byte of a later request on a
    /// kept-alive TCP connection to the last header line; nginx's `client_header_timeout` is also 10 s.
    var header: Duration = .seconds(10)
    /// Bytes per second a request body must average once it has taken `header`; 0 sets no rate.
    var minBodyRate = 1024
}
