/// The one failure rule for OpenSSL's libcrypto: its digest calls fail only when memory cannot be had, and
/// a digest must never come out silently wrong (it names renditions and signs callbacks), so a failed call
/// stops the process with the call's name.
package enum LibCrypto {
    package static func check(_ succeeded: Bool, _ call: StaticString) {
        guard succeeded else { fatalError("libcrypto: \(call) failed") }
    }
}
