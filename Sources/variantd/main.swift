import VariantdCore

#if canImport(Glibc)
    import Glibc
#endif

SignalStream.resetInheritedMask()
exit(await CommandLineTool.main(Array(CommandLine.arguments.dropFirst())).rawValue)
