import Variants

/// What one render or info request came to: logged as one JSON line (`"event":"render"` or `"info"`); a
/// render's is counted in the metrics by `outcome` and `code`, both from closed sets.
struct RenderRecord: Sendable {
    enum Outcome: String, Sendable, CaseIterable {
        /// Answered from the rendition store: no decode, no render slot.
        case hit
        /// Rendered for this request.
        case miss
        /// Answered by an identical request's render that was already in flight.
        case shared
        /// `304`: the client's copy is current.
        case notModified = "not_modified"
        /// The render ran and ended in a typed error.
        case failed
        /// Refused before rendering: request, credentials, missing object, the cap, or no free slot.
        case rejected
    }

    var event = "render"
    var method: String
    var bucket: String?
    var path: String?
    var outcome: Outcome
    /// `ok`, or the error code.
    var code: String
    var status: Int
    /// Seconds from arrival to answer.
    var seconds: Double
    /// The rendition's size (also for `HEAD`, whose body is not sent); 0 for errors and `304`.
    var bytesOut: Int

    /// Appends the log line, in the wire form (sorted keys, absent members left out), written by hand (an
    /// encoder cost more than the rest of a cache hit) straight into the log's own buffer, so that a line
    /// allocates nothing of its own. Seconds are written to the microsecond.
    func write(to line: inout [UInt8]) {
        line.append(UInt8(ascii: "{"))
        if let bucket { Self.member(#""bucket":"#, .string(bucket), to: &line) }
        Self.member(#""bytesOut":"#, .number(String(bytesOut)), to: &line)
        Self.member(#""code":"#, .string(code), to: &line)
        Self.member(#""event":"#, .string(event), to: &line)
        Self.member(#""method":"#, .string(method), to: &line)
        Self.member(#""outcome":"#, .string(outcome.rawValue), to: &line)
        if let path { Self.member(#""path":"#, .string(path), to: &line) }
        let micros = Int((seconds * 1e6).rounded())
        let fraction = String(micros % 1_000_000)
        let zeros = String(repeating: "0", count: 6 - fraction.count)
        Self.member(#""seconds":"#, .number(String(micros / 1_000_000) + "." + zeros + fraction), to: &line)
        Self.member(#""status":"#, .number(String(status)), to: &line)
        line[line.count - 1] = UInt8(ascii: "}")
    }

    private enum Value {
        case string(String)
        /// A number's JSON text.
        case number(String)
    }

    /// `"name":value,`, the key given as written (`"name":`): it needs no escape.
    private static func member(_ key: String, _ value: Value, to line: inout [UInt8]) {
        line.append(contentsOf: key.utf8)
        switch value {
        case .string(let string): JSONText.appendQuoted(string, to: &line)
        case .number(let text): line.append(contentsOf: text.utf8)
        }
        line.append(UInt8(ascii: ","))
    }
}
