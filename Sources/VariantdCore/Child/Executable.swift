import Foundation

/// Where the running `variantd` binary lives, so it can start copies of itself as decoder children.
public enum Executable {
    public static var current: String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    }
}
