import Synchronization
import Variants

/// Renders in flight, one per (source, transform): identical misses arriving together wait for the same
/// render (single flight), and the per-picture cap counts the transforms being rendered with those stored.
actor RenderFlights {
    private var flights: [String: Task<Result<StoredRendition, AnswerError>, Never>] = [:]
    /// Spec keys being rendered per source checksum, not yet in the store's listing.
    private var pending: [String: Set<String>] = [:]
    /// Renders that ended stored: one that ends while a listing is read may be missing from it.
    private let finished = Atomic<Int>(0)

    /// Read before a listing and handed back with it, so that the listing is read again only when a render
    /// ended in between.
    nonisolated var generation: Int { finished.load(ordering: .acquiring) }

    /// Joins the render of this transform already in flight, or starts one if the cap allows.
    ///
    /// - Parameters:
    ///   - exempt: A declared variant of the bucket: counted, never refused.
    ///   - listed: The spec keys the caller found stored for the source, with the `generation` read before
    ///     it listed them: counted as they are unless a render ended since.
    ///   - stored: The spec keys the store holds for the source now (it blocks, so it runs off the
    ///     cooperative threads); a store that cannot say refuses the render.
    /// - Returns: The outcome and whether it was another request's render.
    func render(
        source: String, specKey: String, exempt: Bool, listed: (keys: Set<String>, generation: Int),
        stored: @escaping @Sendable () throws(VariantsError) -> Set<String>,
        work: @escaping @Sendable () async -> Result<StoredRendition, AnswerError>
    ) async -> (result: Result<StoredRendition, AnswerError>, joined: Bool) {
        let key = source + "/" + specKey
        var given: (keys: Set<String>, generation: Int)? = listed
        while true {
            if let flight = flights[key] {
                return (await flight.value, true)
            }
            let seen: Int
            let listed: Set<String>
            if let known = given {
                (seen, listed, given) = (known.generation, known.keys, nil)
            } else {
                seen = generation
                switch await Blocking.run(stored) {
                case .success(let keys): listed = keys
                case .failure(let error): return (.failure(AnswerError(error)), false)
                }
            }
            // Other requests ran while the listing was read: count again if a render may be missing from it.
            guard generation == seen, flights[key] == nil else { continue }
            let distinct = listed.union(pending[source] ?? []).union([specKey])
            guard exempt || distinct.count <= BucketDeclaration.maximumVariants else {
                let message =
                    "the picture already has \(BucketDeclaration.maximumVariants) transforms; use one of its sizes"
                return (.failure(.pipeline(VariantsError(.tooManyVariants, message))), false)
            }
            pending[source, default: []].insert(specKey)
            let flight = Task { await work() }
            flights[key] = flight
            let result = await flight.value
            flights[key] = nil
            pending[source]?.remove(specKey)
            if pending[source]?.isEmpty == true { pending[source] = nil }
            if case .success = result { finished.add(1, ordering: .releasing) }
            return (result, false)
        }
    }
}
