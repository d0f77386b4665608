/// What `variantd thumbhash bench` runs. The benchmark lives with the others, in their own target, which the
/// executable hands to `ThumbHashCommand` as its type parameter.
package protocol ThumbHashBenchAction: Sendable {
    /// Times encode and decode, `iterations` calls per round; `compare` adds thumbhash-rs beside.
    static func run(json: Bool, iterations: Int, compare: Bool) throws -> ExitStatus
}
