/// JSON string literals for lines other modules build by hand where an encoder costs too much per line (one
/// log line per render request), with the same escaping as every declaration's canonical text.
public enum JSONText {
    /// A string as a JSON string literal, escaping what JSON requires and nothing else.
    public static func quote(_ string: String) -> String {
        JSONValue.quote(string)
    }
}
