import Variants

/// What one render request came to: logged as one JSON line (`"event":"render"`) and counted in the
/// metrics by `outcome` and `code`, both from closed sets.
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

    let event = "render"
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

    /// The log line, in the wire form (sorted keys, absent members left out), built by hand: an encoder
    /// cost more than the rest of a cache hit.
    var line: String {
        var line = "{"
        line.reserveCapacity(192)
        if let bucket { line += #""bucket":"# + JSONText.quote(bucket) + "," }
        line += #""bytesOut":\#(bytesOut),"code":"# + JSONText.quote(code)
        line += #","event":"# + JSONText.quote(event) + #","method":"# + JSONText.quote(method)
        line += #","outcome":"# + JSONText.quote(outcome.rawValue)
        if let path { line += #","path":"# + JSONText.quote(path) }
        line += #","seconds":\#(seconds),"status":\#(status)}"#
        return line
    }
}
