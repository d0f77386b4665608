import Variants

/// The manifest line of a part of the source a batch left out: an error line as for a file (`statusCode`,
/// `error`, `message`, `declarationSha256`) that names the `listing` instead of a path, and for an
/// object-storage listing how far it got (`listed` keys, the last `stoppedAfter`). A resume lists again from
/// the start, so the line is history: it is never taken as done, nor as a line that is not a record.
struct WalkProblemLine: Encodable {
    var statusCode: Int
    var error: VariantsError.Code
    var message: String
    var listing: String
    var listed: Int?
    var stoppedAfter: String?
    var declarationSha256: String

    init(problem: WalkProblem, declaration: String) {
        let error = problem.error
        statusCode = error.code.statusCode
        self.error = error.code
        message = error.message
        listing = problem.location
        listed = problem.reached?.listed
        stoppedAfter = problem.reached?.stoppedAfter
        declarationSha256 = declaration
    }

    /// The line's text, without its newline.
    func text() throws -> [UInt8] {
        try WireJSON.encode(self)
    }

    /// Whether a manifest line is one of these.
    static func describes(_ line: some Sequence<UInt8>) -> Bool {
        (try? WireJSON.decode(Listing.self, from: line)) != nil
    }

    private struct Listing: Decodable {
        var listing: String
    }
}
