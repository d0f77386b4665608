/// The work done on one stored object: hash, sniff, probe, decode, measure — or a typed error.
///
/// Runs synchronously on the calling thread; callers that face hostile input run it in a decoder child
/// process, because a C decoder can abort the process it runs in.
public struct Pipeline: Sendable {
    public var limits: Limits

    /// Starts libvips (once per process).
    public init(limits: Limits = .default) throws(VariantsError) {
        do {
            try Vips.start()
        } catch {
            throw VariantsError(.internalError, "libvips did not start: \(error.message)")
        }
        self.limits = limits
    }

    /// Processes the bytes of one object.
    public func process(_ bytes: [UInt8], request: ObjectRequest, timings: inout StageTimings)
        throws(VariantsError) -> CompletionMetadata
    {
        guard bytes.count <= limits.maxInputBytes else {
            throw VariantsError(
                .payloadTooLarge, "the object is \(bytes.count) bytes, over the limit of \(limits.maxInputBytes)")
        }
        let checksum = timings.measure("hash") { SHA256.hex(bytes) }
        let (type, sniffed) = timings.measure("sniff") {
            let sniffed = Sniffer.sniff(bytes.prefix(Sniffer.prefixLength))
            let type = Sniffer.resolve(
                sniffed: sniffed, declared: request.declaredContentType, fileName: request.path)
            return (type, sniffed)
        }
        var metadata = CompletionMetadata(
            bucket: request.bucket, path: request.path, size: bytes.count, contentType: type.mimeType,
            checksumSha256: checksum)

        guard type.isDecodable else {
            try refuseUndecodable(type, request: request)
            return metadata
        }
        guard sniffed != nil else {
            throw bytes.isEmpty
                ? .unreadable(.empty, "the file is empty")
                : .unreadable(.corrupt, "the bytes do not begin like a \(type.mimeType) file")
        }

        let picture = try timings.measure("probe") { () throws(VariantsError) in
            try OpenedPicture(bytes: bytes, type: type, limits: limits)
        }
        let decoded = try timings.measure("decode") { () throws(VariantsError) in
            try picture.decode { width, height in ThumbHashRendition.size(width: width, height: height) }
        }
        metadata.width = decoded.width
        metadata.height = decoded.height
        metadata.hasAlpha = picture.header.hasAlpha
        metadata.thumbhash = try timings.measure("thumbhash") { () throws(VariantsError) in
            do {
                return try ThumbHashRendition.encode(decoded.image)
            } catch {
                throw VariantsError(.internalError, "the placeholder could not be computed (\(error))")
            }
        }
        return metadata
    }

    /// A picture type we never decode is refused as unsupported; a non-picture named or declared as a
    /// picture is refused as not a picture; any other non-picture is simply reported.
    private func refuseUndecodable(_ type: MediaType, request: ObjectRequest) throws(VariantsError) {
        if type.isPicture {
            throw VariantsError(.unsupportedMediaType, "\(type.mimeType) pictures are not decoded here")
        }
        if let claimed = Sniffer.claimedPicture(declared: request.declaredContentType, fileName: request.path) {
            throw .unreadable(.notAPicture, "the object claims to be \(claimed.mimeType) but its bytes are \(type.mimeType)")
        }
    }
}
