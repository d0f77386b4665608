/// One rendition of an order with what it comes to for the decoded picture.
struct PlannedOutput {
    var output: RenditionOutput
    var plan: RenderPlan
}

extension Pipeline {
    /// Renders, checks and writes every rendition the order makes, largest first so smaller ones resample
    /// from the larger ones' reductions; one not made leaves its reduction on the ladder when one made, or
    /// what `resamplesAfter` says comes next, may resample from it. Every rendition is encoded in memory first
    /// and the files are written only when all succeeded, so a failing encoder leaves nothing behind.
    func renderVariants(
        _ plans: [PlannedOutput], resamplesAfter: Bool = true, animatedSource: Bool = false,
        ladder: inout ResizeLadder, animation: DecodedPicture.Animation? = nil, rights: RightsMetadata? = nil,
        checksum: String, into metadata: inout CompletionMetadata, timings: inout StageTimings
    ) throws(VariantsError) {
        var variants: [String: String] = [:]
        var renditions: [String: Rendition] = [:]
        var pending: [RenditionFile] = []
        let specKeys = Set(plans.filter(\.output.wanted).map(\.output.specKey))
        var stored: [String: [UInt8]] = [:]
        for file in store?.stored(sourceChecksum: checksum, specKeys: specKeys) ?? [] {
            stored[file.key] = file.bytes
        }
        let largestFirst = plans.sorted {
            $0.plan.resizeWidth * $0.plan.resizeHeight > $1.plan.resizeWidth * $1.plan.resizeHeight
        }.map { (spec: $0.output.spec, plan: $0.plan, specKey: $0.output.specKey, wanted: $0.output.wanted) }
        let lastMade = largestFirst.lastIndex(where: \.wanted) ?? -1
        // Each watermark is decoded once, when a rendition that places it is made.
        var watermarks: [String: VipsImage] = [:]
        for (index, (spec, plan, specKey, wanted)) in largestFirst.enumerated() {
            guard wanted else {
                // The frames of a source whose animation is not wanted were not decoded; made, it would be.
                if !animates(spec, plan: plan, frames: animatedSource)
                    && (resamplesAfter || index < lastMade)
                {
                    try replay(spec, plan: plan, ladder: &ladder, timings: &timings)
                }
                continue
            }
            try limits.checkRendition(spec.name, width: plan.resizeWidth, height: plan.resizeHeight)
            try limits.checkRendition(spec.name, width: plan.outputWidth, height: plan.outputHeight)
            let type = plan.writtenType
            let key = RenditionKey.make(
                sourceChecksum: checksum, specKey: specKey, fileExtension: type.facts.extensions[0])
            let bytes: [UInt8]
            if let reused = stored[key], (try? RenditionCheck.verify(reused, as: type, plan: plan)) != nil {
                bytes = reused
                if !animates(spec, plan: plan, frames: animation != nil) {
                    try replay(spec, plan: plan, ladder: &ladder, timings: &timings)
                }
            } else {
                let kept = plan.keepsRights ? rights?.blocks ?? .none : .none
                var watermark: VipsImage?
                if let declared = spec.watermark {
                    if let decoded = watermarks[declared.checksum] {
                        watermark = decoded
                    } else {
                        watermark = try decode(declared, timings: &timings)
                        watermarks[declared.checksum] = watermark
                    }
                }
                let output = try render(
                    spec, plan: plan, ladder: &ladder, animation: animation, metadata: kept,
                    watermark: watermark,
                    timings: &timings)
                try RenditionCheck.verify(output.bytes, as: type, plan: plan)
                bytes = output.bytes
                pending.append(RenditionFile(key: key, bytes: bytes))
            }
            variants[spec.name] = "/v1/files/\(metadata.bucket)/\(metadata.path)?variant=\(spec.name)"
            renditions[spec.name] = Rendition(
                width: plan.outputWidth, height: plan.outputHeight, contentType: type.mimeType,
                size: bytes.count,
                checksumSha256: SHA256.hex(bytes), key: key)
        }
        if let store {
            try timings.measure(.write) { () throws(VariantsError) in try store.write(pending) }
        }
        metadata.variants = variants
        metadata.renditions = renditions
    }

    /// Leaves a rendition's reduction on the ladder without encoding it: one taken from the store, or one
    /// not wanted, so that what resamples after it gets the pixels it gets when the rendition is made.
    private func replay(
        _ spec: VariantSpec, plan: RenderPlan, ladder: inout ResizeLadder, timings: inout StageTimings
    ) throws(VariantsError) {
        try timings.measure(.render, variant: spec.name) { () throws(VariantsError) in
            do {
                try Renderer.replay(plan, spec: spec, ladder: &ladder)
            } catch {
                throw VariantsError(.internalError, "variant '\(spec.name)' could not be resized (\(error))")
            }
        }
    }

    private func render(
        _ spec: VariantSpec, plan: RenderPlan, ladder: inout ResizeLadder,
        animation: DecodedPicture.Animation?, metadata: MetadataBlocks, watermark: VipsImage?,
        timings: inout StageTimings
    ) throws(VariantsError) -> Renderer.Output {
        do {
            if animates(spec, plan: plan, frames: animation != nil), let animation {
                return try timings.measure(.render, variant: spec.name) { () throws(BackendError) in
                    try Renderer.animate(
                        animation, plan: plan, spec: spec, metadata: metadata, watermark: watermark)
                }
            }
            let image = try timings.measure(.render, variant: spec.name) { () throws(BackendError) in
                try Renderer.prepare(plan, spec: spec, ladder: &ladder, watermark: watermark)
            }
            return try timings.measure(.encode, variant: spec.name) { () throws(BackendError) in
                try Renderer.encode(image, plan: plan, metadata: metadata)
            }
        } catch {
            throw VariantsError(.internalError, "variant '\(spec.name)' could not be rendered (\(error))")
        }
    }

    /// A watermark's pixels, decoded like any picture under the pipeline's limits: 8-bit sRGB, upright, with
    /// its alpha.
    private func decode(_ watermark: Watermark, timings: inout StageTimings) throws(VariantsError)
        -> VipsImage
    {
        try timings.measure(.decode) { () throws(VariantsError) in
            do throws(VariantsError) {
                let picture = try OpenedPicture(bytes: watermark.png, type: .png, limits: limits)
                return try picture.decode { width, height in (width, height) }.image
            } catch {
                throw VariantsError(
                    .internalError, "the watermark '\(watermark.name)' cannot be decoded (\(error.message))")
            }
        }
    }

    /// An animated source keeps its animation only in renditions that ask for it, in a type that animates,
    /// made from its frames and never from the ladder.
    private func animates(_ spec: VariantSpec, plan: RenderPlan, frames: Bool) -> Bool {
        plan.writtenType.facts.animates && spec.animated && frames
    }
}
