#if canImport(Glibc)
    import Glibc
#endif

/// How busy the machine was: every figure is reported with the load average around it.
enum LoadAverage {
    /// The 1-minute load average; 0 when the system does not tell.
    static func oneMinute() -> Double {
        var loads = [0.0, 0.0, 0.0]
        return getloadavg(&loads, 3) > 0 ? loads[0] : 0
    }
}
