/// The CRC-32 of PNG chunks (ISO 3309, reflected polynomial 0xEDB88320). `ContainerCheck` verifies it, so a
/// chunk whose checksum does not match is found by us: libspng, reading rows as they are needed, stops at the
/// last row and never reads the checksum that follows the pixel data. The placeholder PNGs are written with it.
package enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { byte in
        (0..<8).reduce(UInt32(byte)) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }

    package static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        ~bytes.reduce(UInt32.max) { crc, byte in table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    }
}
