import Foundation
import Synchronization

@testable import VariantdCore

/// The daemon's resident memory and open descriptors, read from `/proc` once a second while a soak runs, so
/// that a creep shows however the load comes and goes.
final class ResourceSamples: Sendable {
    struct Sample: Sendable {
        /// Seconds since sampling began.
        var at: Double
        var residentBytes: Int
        var descriptors: Int
    }

    private let samples = Mutex([Sample]())
    private let running = SoakSwitch()

    /// Samples the process `id` on a thread of its own until `stop()`; `each` runs after every sample.
    init(of id: Int32, each: @escaping @Sendable () -> Void = {}) {
        let started = ContinuousClock.now
        Thread.detachNewThread { [self] in
            while running.isOn {
                if let resident = ProcessMemory.residentBytes(of: "\(id)"),
                    let descriptors = ProcessDescriptors.openCount(of: "\(id)")
                {
                    let at = (ContinuousClock.now - started) / .seconds(1)
                    samples.withLock {
                        $0.append(Sample(at: at, residentBytes: resident, descriptors: descriptors))
                    }
                }
                each()
                Thread.sleep(forTimeInterval: 1)
            }
        }
    }

    func stop() {
        running.turnOff()
    }

    var all: [Sample] { samples.withLock { $0 } }

    /// The median resident memory of the samples taken from `start` to `end` seconds.
    func medianResidentBytes(from start: Double, to end: Double) -> Int? {
        let values = all.filter { $0.at >= start && $0.at < end }.map(\.residentBytes).sorted()
        return values.isEmpty ? nil : values[values.count / 2]
    }
}
