import VariantdCore

#if canImport(Glibc)
    import Glibc
#endif

exit(await CommandLineTool.main(Array(CommandLine.arguments.dropFirst())).rawValue)
