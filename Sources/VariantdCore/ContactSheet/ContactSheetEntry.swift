import Variants

/// What the contact sheet reads from one manifest line: a picture's metadata and renditions, or an error.
/// Every field is optional but the path, so a line from an older or newer build still shows what it has.
struct ContactSheetEntry: Decodable {
    var path: String
    var contentType: String?
    var size: Int?
    var width: Int?
    var height: Int?
    var thumbhash: String?
    var renditions: [String: Rendition]?
    var statusCode: Int?
    var error: String?
    var reason: String?
    var message: String?

    /// How the summary counts it; an error code this build does not know counts as an error.
    var category: ResultCategory {
        guard let error else { return .ok }
        return VariantsError.Code(rawValue: error).map(ResultCategory.init) ?? .error
    }

    /// The path alone, for the first pass.
    struct Path: Decodable {
        var path: String
    }
}
