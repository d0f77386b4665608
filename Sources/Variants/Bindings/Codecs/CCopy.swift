/// The two copies every door to C makes, written once: the text of a shim's fixed-size error-message field,
/// and the bytes of a buffer the library allocated, released with the library's own free right after.
enum CCopy {
    /// The NUL-terminated text of a fixed-size `char[]` field (imported as a tuple), decoded as UTF-8.
    static func text<Field>(ofField field: Field) -> String {
        var field = field
        return withUnsafeBytes(of: &field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// The `count` bytes at `pointer`, which `free` then releases (also when `pointer` is nil, as every C
    /// free allows); nil when the library handed nothing over.
    static func bytes(
        _ pointer: UnsafeMutableRawPointer?, count: Int, free: (UnsafeMutableRawPointer?) -> Void
    ) -> [UInt8]? {
        defer { free(pointer) }
        return pointer.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) }
    }
}
