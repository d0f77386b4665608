import Variants

/// libFuzzer entry for the storage webhook's body: any bytes read to changes or fail with a VariantsError.
@_cdecl("LLVMFuzzerTestOneInput")
public func readOneStorageEvent(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let event = try? StorageEvent(body: bytes) {
        precondition(event.ignored >= 0 && event.changes.allSatisfy { !$0.bucket.isEmpty && !$0.key.isEmpty })
        precondition(event.changes.allSatisfy { $0.version.utf8.count <= StorageChange.maximumVersionBytes })
    }
    return 0
}
