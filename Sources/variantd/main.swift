import VariantdCore

SignalStream.resetInheritedMask()
ResourceLimit.liftOpenFiles()
await Program.tool.main(Array(CommandLine.arguments.dropFirst())).endProcess()
