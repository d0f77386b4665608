import Variants

/// libFuzzer entry for the job line a decoder child reads: any bytes decode to a job or fail with an error.
@_cdecl("LLVMFuzzerTestOneInput")
public func decodeOneJob(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let job = try? WireJSON.decode(PipelineJob.self, from: bytes) {
        _ = try? WireJSON.encode(job)
    }
    _ = try? WireJSON.decode(PipelineReply.self, from: bytes)
    return 0
}
