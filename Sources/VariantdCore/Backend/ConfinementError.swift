/// A kernel refused to confine a decoder child; the child then exits rather than decode unconfined.
struct ConfinementError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
