/// The SHA-256 every object is identified by (metadata, rendition keys, the decoder quarantine).
public enum Checksum {
    /// Lowercase hex.
    public static func sha256(_ bytes: [UInt8]) -> String {
        SHA256.hex(bytes)
    }
}
