import VariantdCore

#if canImport(Glibc)
    import Glibc
#endif

SignalStream.resetInheritedMask()
exit(await Program.tool.main(Array(CommandLine.arguments.dropFirst())).rawValue)
