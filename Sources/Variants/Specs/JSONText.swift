/// JSON string literals for lines other modules build by hand where an encoder costs too much per line (one
/// log line per render request), with the same escaping as every declaration's canonical text.
public enum JSONText {
    /// Appends `string` to UTF-8 text as a JSON string literal, escaping what JSON requires and nothing else.
    public static func appendQuoted(_ string: String, to text: inout [UInt8]) {
        JSONValue.appendQuoted(string, to: &text)
    }
}
