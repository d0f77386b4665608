extension ThumbHash {
    /// A decoded placeholder: straight (not premultiplied) RGBA8, row by row, at most 32 pixels a side.
    public struct Image: Sendable, Hashable {
        public let width: Int
        public let height: Int
        public let rgba: [UInt8]
    }
}
