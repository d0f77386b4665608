/// The cosine basis values exactly as the reference evaluates them.
///
/// The encoder and the decoder associate the argument differently (`π/n·c·(i+½)` versus `π/n·(i+½)·c`),
/// which can change its last bit, so each has its own function.
enum DCTBasis {
    /// The encoder's `cos(PI / n * c * (i + 0.5))`.
    static func encoder(size n: Int, component c: Int, index i: Int) -> Double {
        FdlibmCosine.cos(Double.pi / Double(n) * Double(c) * (Double(i) + 0.5))
    }

    /// The decoder's `cos(PI / n * (i + 0.5) * c)`.
    static func decoder(size n: Int, component c: Int, index i: Int) -> Double {
        FdlibmCosine.cos(Double.pi / Double(n) * (Double(i) + 0.5) * Double(c))
    }
}
