import Foundation
import Variants

/// `PUT`/`GET /v1/accounts/<name>` and `GET /v1/accounts/<name>/usage[?month=YYYY-MM]`: the storage layer
/// sets an account's monthly transform allowance from its plan and wallet, and bills from its usage.
struct AccountsEndpoint: Sendable {
    let queue: any JobQueue

    static let prefix = "/v1/accounts/"

    /// Answers a request under `prefix`, already authorized.
    func respond(to request: HTTPRequest) throws(AnswerError) -> HTTPReply {
        let rest = request.path.dropFirst(Self.prefix.count).split(
            separator: "/", omittingEmptySubsequences: false)
        guard let name = rest.first.map(String.init), Self.isName(name), rest.count <= 2 else {
            throw .pipeline(VariantsError(.notFound, "no route for \(request.method) \(request.path)"))
        }
        switch (request.routedMethod, rest.count == 2 ? String(rest[1]) : nil) {
        case ("PUT", nil):
            try request.checkBodyKept(tooLarge: "the account body is over the server's limit")
            let account = try AnswerError.catching { () throws(VariantsError) in
                try Self.account(named: name, from: try request.body.bytes())
            }
            return answer { () async throws(QueueError) in
                try await queue.setAccount(account)
                return .json(account)
            }
        case ("GET", nil):
            return answer { () async throws(QueueError) in
                guard let account = try await queue.account(named: name) else {
                    return .error(VariantsError(.notFound, "account '\(name)' has no allowance set"))
                }
                return .json(account)
            }
        case ("GET", "usage"):
            let month = try AnswerError.catching { () throws(VariantsError) in
                try Self.month(of: request.target)
            }
            return answer { () async throws(QueueError) in
                let usage = try await queue.usage(account: name, month: month)
                return .json(Usage(account: name, month: month, buckets: usage))
            }
        case (_, nil):
            return .now(.methodNotAllowed(request.path, takes: "GET, PUT"))
        case (_, "usage"):
            return .now(.methodNotAllowed(request.path, takes: "GET"))
        default:
            throw .pipeline(VariantsError(.notFound, "no route for \(request.method) \(request.path)"))
        }
    }

    /// What `GET …/usage` answers: transforms per month and bucket, and their total.
    struct Usage: Encodable {
        var account: String
        var month: String?
        var buckets: [TransformUsage]
        var total: Int { buckets.reduce(0) { $0 + $1.transforms } }

        private enum CodingKeys: String, CodingKey { case account, month, buckets, total }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(account, forKey: .account)
            try container.encodeIfPresent(month, forKey: .month)
            try container.encode(buckets, forKey: .buckets)
            try container.encode(total, forKey: .total)
        }
    }

    /// Runs a database call off the I/O thread; a database that cannot answer is `503` with `Retry-After`.
    private func answer(_ body: @escaping @Sendable () async throws(QueueError) -> HTTPResponse) -> HTTPReply
    {
        .later {
            do throws(QueueError) {
                return try await body()
            } catch {
                return .error(
                    .service(
                        ServiceError(.transformBusy, "the accounts cannot be read now: \(error.message)")),
                    headers: [("Retry-After", "5")])
            }
        }
    }

    /// `{"transformsPerMonth": N, "overage": "allowed" | "refused"}`.
    static func account(named name: String, from body: [UInt8]) throws(VariantsError) -> Account {
        struct Fields: Decodable {
            var transformsPerMonth: Int
            var overage: Account.Overage

            private enum CodingKeys: String, CodingKey, CaseIterable { case transformsPerMonth, overage }

            init(from decoder: any Decoder) throws {
                try decoder.refuseUnknownKeys(CodingKeys.self, in: "account")
                let container = try decoder.container(keyedBy: CodingKeys.self)
                transformsPerMonth = try container.decode(Int.self, forKey: .transformsPerMonth)
                overage = try container.decode(Account.Overage.self, forKey: .overage)
            }
        }
        let fields = try WireJSON.request(
            Fields.self, from: body,
            subject: #"an account, {"transformsPerMonth": integer ≥ 0, "overage": "allowed" | "refused"},"#)
        guard fields.transformsPerMonth >= 0 else {
            throw VariantsError(.invalidRequest, "transformsPerMonth: expected an integer ≥ 0")
        }
        return Account(name: name, transformsPerMonth: fields.transformsPerMonth, overage: fields.overage)
    }

    /// An account is named as a bucket is.
    static func isName(_ name: String) -> Bool { BucketDeclaration.isValidName(name) }

    /// The `month` query parameter of `target`, `YYYY-MM`; nil when absent.
    static func month(of target: String) throws(VariantsError) -> String? {
        guard let query = target.split(separator: "?", maxSplits: 1).dropFirst().first else { return nil }
        var month: String?
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.first == "month" else {
                throw VariantsError(.invalidRequest, "usage takes only month=YYYY-MM")
            }
            month = parts.count == 2 ? parts[1] : ""
        }
        guard let month else { return nil }
        guard Month(month) != nil else {
            throw VariantsError(.invalidRequest, "month: expected YYYY-MM, got \"\(month)\"")
        }
        return month
    }
}
