/// A place in object storage, `s3://BUCKET[/PREFIX]`, checked once where it is given.
package struct S3Location: Sendable, Hashable, CustomStringConvertible {
    /// 3…63 of `a-z 0-9 . -`, starting and ending with a letter or digit (S3's bucket naming rules).
    package let bucket: String
    /// Keys under the location start with this, without leading or trailing `/`; empty for the whole bucket.
    let prefix: String

    /// Whether `text` names object storage rather than a folder.
    static func isLocation(_ text: String) -> Bool { text.hasPrefix("s3://") }

    package init(_ text: String) throws(S3Error) {
        guard Self.isLocation(text) else {
            throw S3Error(.configuration, text, "expected s3://BUCKET[/PREFIX]")
        }
        let rest = text.dropFirst("s3://".count)
        let bucket = String(rest.prefix { $0 != "/" })
        guard Self.isBucketName(bucket) else {
            throw S3Error(
                .configuration, text,
                "a bucket name is 3…63 of a-z 0-9 . -, starting and ending with a letter or digit")
        }
        let prefix = rest.dropFirst(bucket.count).split(separator: "/", omittingEmptySubsequences: true)
        guard !prefix.contains("..") && !prefix.contains(".") else {
            throw S3Error(.configuration, text, "a prefix cannot hold '.' or '..' parts")
        }
        self.bucket = bucket
        self.prefix = prefix.joined(separator: "/")
    }

    /// The key of an object named relative to this location (`a/b.jpg` under `s3://bkt/up` is `up/a/b.jpg`).
    package func key(_ relative: String) -> String {
        prefix.isEmpty ? relative : prefix + "/" + relative
    }

    /// The name relative to this location of a key listed under it: the key's bytes after the prefix (counted
    /// in `Character`s, a combining mark after the `/` would be dropped with it).
    func relative(_ key: String) -> String {
        String(Substring(key.utf8.dropFirst(listPrefix.utf8.count)))
    }

    /// The prefix to list: every key under this location, and none of a sibling sharing its first letters.
    var listPrefix: String { prefix.isEmpty ? "" : prefix + "/" }

    /// `s3://bucket/key` for an object under this location, for messages.
    func describe(_ relative: String) -> String { "s3://\(bucket)/\(key(relative))" }

    package var description: String { prefix.isEmpty ? "s3://\(bucket)" : "s3://\(bucket)/\(prefix)" }

    private static func isBucketName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        let allowed: (UInt8) -> Bool = {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
        }
        guard (3...63).contains(bytes.count), allowed(bytes[0]), allowed(bytes[bytes.count - 1]) else {
            return false
        }
        return bytes.allSatisfy { allowed($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
            && !name.contains("..")
    }
}
