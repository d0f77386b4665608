import Variants

/// Measurements of `/v1/info` in flight, one per source checksum: requests for the same bytes arriving
/// together wait for the one decoder child measuring them (single flight), so asking twice decodes once even
/// before the first answer is remembered.
actor InfoFlights {
    private var flights: [String: Task<Result<CompletionMetadata, AnswerError>, Never>] = [:]

    /// Joins the measurement of these bytes in flight, or starts `work`.
    ///
    /// - Returns: The outcome and whether it was another request's measurement.
    func measure(
        _ checksum: String, work: @escaping @Sendable () async -> Result<CompletionMetadata, AnswerError>
    ) async -> (result: Result<CompletionMetadata, AnswerError>, joined: Bool) {
        if let flight = flights[checksum] { return (await flight.value, true) }
        let flight = Task { await work() }
        flights[checksum] = flight
        let result = await flight.value
        flights[checksum] = nil
        return (result, false)
    }
}
