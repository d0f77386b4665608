/// Which of a source's metadata a rendition keeps (`metadata=`): by default none, since EXIF tells where a
/// photo was taken and with what, and most renditions are shown to strangers.
public enum KeptMetadata: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
    /// Every metadata block left out.
    case none
    /// Only who made the picture and who holds its rights: EXIF `Artist` and `Copyright`, XMP `dc:rights`,
    /// in the formats whose encoder writes them (`FormatFacts.Encoder.keepsRights`); nothing else of the
    /// source's EXIF or XMP, so no place, time or camera.
    case copyright
}
