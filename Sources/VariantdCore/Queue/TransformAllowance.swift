/// Each account's monthly allowance of transforms and what it used, kept in the queue's database so every
/// daemon sharing it counts against one allowance, across restarts.
///
/// A transform counts once per account and calendar month (UTC): the first time an object is asked for
/// with a set of options that month; later requests for the same are free, as Cloudflare counts unique
/// transformations. Declared variants and requests without options never count.
public protocol TransformAllowance: Sendable {
    /// Sets (or replaces) an account's allowance.
    func setAccount(_ account: Account) async throws(QueueError)

    /// The account's allowance; nil when none was set, which leaves its transforms unlimited.
    func account(named name: String) async throws(QueueError) -> Account?

    /// Counts one transform unless it was counted already this month, in one transaction: with an
    /// allowance used up and overage refused, a new transform is refused and nothing is counted. Two
    /// daemons racing at the boundary never let the account past its allowance.
    func count(_ transform: CountedTransform) async throws(QueueError) -> TransformCount

    /// Transforms counted per month and bucket, oldest month first; of one month (`YYYY-MM`) when given.
    func usage(account: String, month: String?) async throws(QueueError) -> [TransformUsage]
}

/// An account's monthly allowance, as the storage layer sets it from the account's plan and wallet.
public struct Account: Sendable, Equatable, Codable {
    public enum Overage: String, Sendable, Codable {
        /// Past the allowance, new transforms are counted (and billed).
        case allowed
        /// Past the allowance, new transforms are refused (`403 plan_feature_locked`).
        case refused
    }

    public var name: String
    public var transformsPerMonth: Int
    public var overage: Overage

    public init(name: String, transformsPerMonth: Int, overage: Overage) {
        self.name = name
        self.transformsPerMonth = transformsPerMonth
        self.overage = overage
    }
}

/// One transform of one object, in one month of one account.
public struct CountedTransform: Sendable, Equatable {
    public var account: String
    /// `YYYY-MM`, UTC.
    public var month: String
    public var bucket: String
    /// The object's path and the transform's spec key: what makes it unique.
    public var transform: String

    public init(account: String, month: String, bucket: String, transform: String) {
        self.account = account
        self.month = month
        self.bucket = bucket
        self.transform = transform
    }
}

public enum TransformCount: Sendable, Equatable {
    /// Counted this month before: free.
    case already
    /// Counted now.
    case counted
    /// New, and past the allowance with overage refused: not counted.
    case refused
}

/// How many transforms an account used in a month, in one bucket.
public struct TransformUsage: Sendable, Equatable, Codable {
    public var month: String
    public var bucket: String
    public var transforms: Int

    public init(month: String, bucket: String, transforms: Int) {
        self.month = month
        self.bucket = bucket
        self.transforms = transforms
    }
}
