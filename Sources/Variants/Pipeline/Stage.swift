/// The named steps of processing one object, in order: the fixed set a metric label may take.
///
/// Timings of rendering and encoding are kept per variant (`render.thumb`) for the log line; metrics add
/// them up under their stage, so callers' variant names never become label values. `child` is the time of
/// a decoder child that ended without an answer (it died, overran or was cancelled), which no stage of its
/// own can claim.
public enum Stage: String, Sendable, CaseIterable, Codable {
    case read, hash, sniff, probe, decode, thumbhash, render, encode, write, child

    /// The stage of a timing key: `render` for `render.thumb`, nil for a key of no stage.
    public init?(timingKey key: String) {
        self.init(rawValue: String(key.prefix { $0 != "." }))
    }
}
