public struct ThumbHash {
    public var bytes: [UInt8]
    public var base64: String { "" }
    public static func encode(width: Int, height: Int, rgba: [UInt8]) throws -> ThumbHash { ThumbHash(bytes: []) }
}
