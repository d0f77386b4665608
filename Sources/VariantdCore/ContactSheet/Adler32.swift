/// The Adler-32 that ends a zlib stream (RFC 1950), over the data it holds: the PNG encoder writes its stored
/// blocks without zlib.
enum Adler32 {
    static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var (a, b): (UInt32, UInt32) = (1, 0)
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }
}
