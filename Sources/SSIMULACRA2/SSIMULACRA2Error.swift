/// Why two pictures cannot be compared.
public enum SSIMULACRA2Error: Error, Sendable, Equatable {
    /// The pixel buffer does not hold width × height × channels bytes.
    case bufferSize(expected: Int, got: Int)
    /// A side shorter than 8 pixels, the smallest scale the metric works at.
    case tooSmall(width: Int, height: Int)
    /// The two pictures differ in width or height.
    case sizeMismatch(original: [Int], distorted: [Int])
}
