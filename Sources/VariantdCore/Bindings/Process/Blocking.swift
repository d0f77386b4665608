import Foundation

/// Runs a blocking call (a file hashed, an object-storage or database request) on a Dispatch thread, off
/// Swift's cooperative threads, which are only as many as the cores.
enum Blocking {
    static func run<T: Sendable, Failure: Error>(_ body: @escaping @Sendable () throws(Failure) -> T) async
        -> Result<T, Failure>
    {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: Result { () throws(Failure) in try body() })
            }
        }
    }
}
