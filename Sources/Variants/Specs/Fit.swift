/// How a picture is fitted to a variant's box when both width and height are declared (sharp's `fit`).
///
/// With only one side declared every fit means the same thing: scale to that side, keeping the aspect ratio.
public enum Fit: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
    /// Scale to cover the box, then crop the overflow at `position`.
    case cover
    /// Scale to fit within the box, then letterbox it with `background` to exactly the box.
    case contain
    /// Stretch to exactly the box, ignoring the aspect ratio.
    case fill
    /// Scale to fit within the box, keeping the aspect ratio; one side may come out shorter.
    case inside
    /// Scale to cover the box, keeping the aspect ratio and the overflow; one side may come out longer.
    case outside
}
